/**
 * The one reading of a form-mode elicitation's `requestedSchema` (rfds-elicitation: a restricted
 * JSON Schema) and the one validator of an answer to it. The form in the renderer and the check
 * in main both call `validate`, so an answer the form lets through is one main accepts, and the
 * other way round.
 */

/** One field of the form. `unsupported`: outside the restricted subset; shown raw, never checked. */
export type Field =
  | { kind: 'text'; key: string; title: string; description?: string; required: boolean; format?: TextFormat; minLength?: number; maxLength?: number; pattern?: string; default?: string }
  | { kind: 'number'; key: string; title: string; description?: string; required: boolean; integer: boolean; minimum?: number; maximum?: number; default?: number }
  | { kind: 'boolean'; key: string; title: string; description?: string; required: boolean; default?: boolean }
  | { kind: 'select'; key: string; title: string; description?: string; required: boolean; choices: Choice[]; default?: string }
  | { kind: 'multi'; key: string; title: string; description?: string; required: boolean; choices: Choice[]; minItems?: number; maxItems?: number; default?: string[] }
  | { kind: 'unsupported'; key: string; title: string; description?: string; required: boolean; raw: unknown; why: string };

export type TextFormat = 'email' | 'uri' | 'date' | 'date-time';
export const KNOWN_TEXT_FORMATS: readonly TextFormat[] = ['email', 'uri', 'date', 'date-time'];
export type Choice = { value: string; title: string };

/** A value as the form holds it (numbers may still be the text typed) or as an answer carries it. */
export type Value = string | number | boolean | string[] | undefined;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const text = (v: unknown) => (typeof v === 'string' ? v : undefined);

function choicesOf(list: unknown): Choice[] | null {
  if (!Array.isArray(list)) return null;
  const choices = list.filter(isObject).filter((c) => typeof c.const === 'string').map((c) => ({ value: String(c.const), title: text(c.title) ?? String(c.const) }));
  return choices.length ? choices : null;
}

const enumChoices = (list: unknown[]): Choice[] => list.map((v) => ({ value: String(v), title: String(v) }));

/** Turns `requestedSchema` into form fields; anything outside the restricted subset is `unsupported`. */
export function parseSchema(schema: unknown): Field[] {
  if (!isObject(schema) || !isObject(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  return Object.entries(schema.properties).map(([key, raw]): Field => {
    const p = isObject(raw) ? raw : {};
    const base = { key, title: text(p.title) ?? key, description: text(p.description), required: required.has(key) };
    const type = p.type;
    if (type === 'string') {
      const oneOf = choicesOf(p.oneOf);
      if (oneOf) return { ...base, kind: 'select', choices: oneOf, default: text(p.default) };
      if (Array.isArray(p.enum)) return { ...base, kind: 'select', choices: enumChoices(p.enum), default: text(p.default) };
      const format = text(p.format);
      if (format && !(KNOWN_TEXT_FORMATS as readonly string[]).includes(format)) {
        return { ...base, kind: 'unsupported', raw, why: `string format “${format}”` };
      }
      return {
        ...base,
        kind: 'text',
        format: format as TextFormat | undefined,
        minLength: num(p.minLength),
        maxLength: num(p.maxLength),
        pattern: text(p.pattern),
        default: text(p.default),
      };
    }
    if (type === 'number' || type === 'integer') {
      return { ...base, kind: 'number', integer: type === 'integer', minimum: num(p.minimum), maximum: num(p.maximum), default: num(p.default) };
    }
    if (type === 'boolean') return { ...base, kind: 'boolean', default: typeof p.default === 'boolean' ? p.default : undefined };
    if (type === 'array' && isObject(p.items)) {
      const items = p.items;
      const anyOf = choicesOf(items.anyOf);
      const choices = anyOf ?? (items.type === 'string' && Array.isArray(items.enum) ? enumChoices(items.enum) : null);
      if (choices) {
        return {
          ...base,
          kind: 'multi',
          choices,
          minItems: num(p.minItems),
          maxItems: num(p.maxItems),
          default: Array.isArray(p.default) ? p.default.map(String) : undefined,
        };
      }
      return { ...base, kind: 'unsupported', raw, why: `list of ${String(items.type ?? 'unknown items')}` };
    }
    return { ...base, kind: 'unsupported', raw, why: `type “${String(type ?? 'none')}”` };
  });
}

export function initialValue(field: Field): Value {
  switch (field.kind) {
    case 'text':
      if (field.format === 'date-time' && field.default) return toLocalDateTime(field.default);
      return field.default ?? '';
    case 'number':
      return field.default;
    case 'boolean':
      return field.default ?? false;
    case 'select':
      return field.default ?? '';
    case 'multi':
      return field.default ?? [];
    default:
      return undefined;
  }
}

/**
 * A date-time as a datetime-local input wants it: local time, no zone (`2026-01-31T09:30`,
 * with seconds when they are not zero). ISO values with `Z` or an offset are converted; a value
 * already without a zone, or one that does not parse, is kept as it is.
 */
export function toLocalDateTime(value: string): string {
  if (!/(Z|[+-]\d{2}:?\d{2})$/i.test(value.trim())) return value;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const pad = (n: number) => String(n).padStart(2, '0');
  const base = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
  return date.getSeconds() || date.getMilliseconds() ? `${base}:${pad(date.getSeconds())}` : base;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const isMissing = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/**
 * The problem with one field's value, in words, or null. `name` is how the field is named in
 * the message (the form shows its title; main's error quotes it).
 */
export function validate(field: Field, value: Value | null, name: string = field.title): string | null {
  if (field.kind === 'unsupported') return null;
  if (isMissing(value)) return field.required ? `${name} is required.` : null;
  switch (field.kind) {
    case 'text': {
      if (typeof value !== 'string') return `${name} must be text.`;
      const s = value;
      if (field.minLength !== undefined && s.length < field.minLength) return `${name} needs at least ${field.minLength} characters.`;
      if (field.maxLength !== undefined && s.length > field.maxLength) return `${name} allows at most ${field.maxLength} characters.`;
      if (field.format === 'email' && !EMAIL.test(s)) return `${name} must be an email address, like name@example.com.`;
      if (field.format === 'uri' && !isUrl(s)) return `${name} must be a full address, like https://example.com.`;
      if (field.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(s)) return `${name} must be a date.`;
      if (field.format === 'date-time' && Number.isNaN(Date.parse(s))) return `${name} must be a date and time.`;
      if (field.pattern && !safeTest(field.pattern, s)) return `${name} must match the pattern ${field.pattern}.`;
      return null;
    }
    case 'number': {
      const n = Number(value);
      if (typeof value === 'boolean' || Array.isArray(value) || !Number.isFinite(n)) return `${name} must be a number.`;
      if (field.integer && !Number.isInteger(n)) return `${name} must be a whole number.`;
      if (field.minimum !== undefined && n < field.minimum) return `${name} must be at least ${field.minimum}.`;
      if (field.maximum !== undefined && n > field.maximum) return `${name} must be at most ${field.maximum}.`;
      return null;
    }
    case 'boolean':
      return typeof value === 'boolean' ? null : `${name} must be yes or no.`;
    case 'select':
      return typeof value === 'string' && field.choices.some((c) => c.value === value) ? null : `${name} must be one of ${field.choices.map((c) => c.value).join(', ')}.`;
    case 'multi': {
      if (!Array.isArray(value)) return `${name} must be a list.`;
      if (value.some((item) => !field.choices.some((c) => c.value === item))) return `${name} may only contain ${field.choices.map((c) => c.value).join(', ')}.`;
      if (field.minItems !== undefined && value.length < field.minItems) return `${name} needs at least ${field.minItems} choices.`;
      if (field.maxItems !== undefined && value.length > field.maxItems) return `${name} allows at most ${field.maxItems} choices.`;
      return null;
    }
  }
}

/** `URL` exists in both hosts (Node and the browser); src-shared is typed without either's globals. */
const UrlClass = (globalThis as unknown as { URL: new (value: string) => unknown }).URL;

function isUrl(value: string): boolean {
  try {
    new UrlClass(value);
    return true;
  } catch {
    return false;
  }
}

function safeTest(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(value);
  } catch {
    return true; // a pattern JavaScript cannot compile is not the person's fault: the agent checks it
  }
}

/** The problems of a whole form, by field key (what the form shows). */
export function formProblems(fields: readonly Field[], values: Readonly<Record<string, Value>>): Record<string, string> {
  const found: Record<string, string> = {};
  for (const field of fields) {
    const problem = validate(field, values[field.key]);
    if (problem) found[field.key] = problem;
  }
  return found;
}

/** The answer's `content`: typed values, empty optional fields left out. */
export function toContent(fields: readonly Field[], values: Readonly<Record<string, Value>>): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.key];
    if (field.kind === 'unsupported') continue;
    if (value === undefined || value === '') continue;
    if (field.kind === 'number') content[field.key] = Number(value);
    else if (field.kind === 'text' && field.format === 'date-time') content[field.key] = new Date(String(value)).toISOString();
    else content[field.key] = value;
  }
  return content;
}

/**
 * Checks a form-mode answer's `content` (as it arrives in main) against the request: every key
 * must be a field asked for, and every field's value passes `validate`. Fields of a type this
 * app does not know pass through unchecked. Returns the problems (field names quoted), or [].
 */
export function checkAnswer(schema: unknown, content: Readonly<Record<string, unknown>>): string[] {
  const fields = parseSchema(schema);
  const problems: string[] = [];
  for (const name of Object.keys(content)) {
    if (!fields.some((f) => f.key === name)) problems.push(`"${name}" is not one of the fields asked for.`);
  }
  for (const field of fields) {
    const value = content[field.key];
    if (field.kind === 'number' && typeof value === 'string' && value !== '') {
      problems.push(`"${field.title}" must be a number.`); // typed text is the form's business; an answer carries numbers
      continue;
    }
    const problem = validate(field, value as Value | null, `"${field.title}"`);
    if (problem) problems.push(problem);
  }
  return problems;
}
