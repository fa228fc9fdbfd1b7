type RawObject = Record<string, unknown>;

function isObject(value: unknown): value is RawObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks a form-mode answer against the request's restricted JSON Schema (rfds-elicitation):
 * required fields, primitive types, enums, lengths and ranges. Properties of a type this app
 * does not know are passed through unchecked. Returns the problems, or an empty list.
 */
export function checkElicitationAnswer(request: RawObject, content: RawObject): string[] {
  const schema = isObject(request.requestedSchema) ? request.requestedSchema : {};
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
  const problems: string[] = [];
  for (const name of required) {
    const value = content[name];
    if (value === undefined || value === null || value === '') problems.push(`${label(properties[name], name)} is required.`);
  }
  for (const [name, value] of Object.entries(content)) {
    const property = properties[name];
    if (!isObject(property)) {
      problems.push(`"${name}" is not one of the fields asked for.`);
      continue;
    }
    if (value === undefined || value === null) continue;
    const what = label(property, name);
    switch (property.type) {
      case 'string': {
        if (typeof value !== 'string') {
          problems.push(`${what} must be text.`);
          break;
        }
        const allowed = allowedValues(property);
        if (allowed && !allowed.includes(value)) problems.push(`${what} must be one of ${allowed.join(', ')}.`);
        if (typeof property.minLength === 'number' && value.length < property.minLength) problems.push(`${what} needs at least ${property.minLength} characters.`);
        if (typeof property.maxLength === 'number' && value.length > property.maxLength) problems.push(`${what} allows at most ${property.maxLength} characters.`);
        if (typeof property.pattern === 'string' && !safeTest(property.pattern, value)) problems.push(`${what} does not have the expected form.`);
        break;
      }
      case 'number':
      case 'integer':
        if (typeof value !== 'number' || !Number.isFinite(value) || (property.type === 'integer' && !Number.isInteger(value))) {
          problems.push(`${what} must be ${property.type === 'integer' ? 'a whole number' : 'a number'}.`);
          break;
        }
        if (typeof property.minimum === 'number' && value < property.minimum) problems.push(`${what} must be at least ${property.minimum}.`);
        if (typeof property.maximum === 'number' && value > property.maximum) problems.push(`${what} must be at most ${property.maximum}.`);
        break;
      case 'boolean':
        if (typeof value !== 'boolean') problems.push(`${what} must be yes or no.`);
        break;
      case 'array': {
        if (!Array.isArray(value)) {
          problems.push(`${what} must be a list.`);
          break;
        }
        const allowed = isObject(property.items) ? allowedValues(property.items) : null;
        if (allowed && value.some((item) => !allowed.includes(String(item)))) problems.push(`${what} may only contain ${allowed.join(', ')}.`);
        if (typeof property.minItems === 'number' && value.length < property.minItems) problems.push(`${what} needs at least ${property.minItems} choices.`);
        if (typeof property.maxItems === 'number' && value.length > property.maxItems) problems.push(`${what} allows at most ${property.maxItems} choices.`);
        break;
      }
      default:
      // A property type from a newer ACP: kept as given.
    }
  }
  return problems;
}

function label(property: unknown, name: string): string {
  return isObject(property) && typeof property.title === 'string' ? `"${property.title}"` : `"${name}"`;
}

function allowedValues(schema: RawObject): string[] | null {
  if (Array.isArray(schema.enum)) return schema.enum.map(String);
  const variants = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : null;
  if (variants) return variants.filter(isObject).map((variant) => String(variant.const));
  return null;
}

function safeTest(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(value);
  } catch {
    return true; // a pattern JavaScript cannot compile is not the person's fault
  }
}
