/** One field of a restricted-JSON-Schema elicitation form (rfds-elicitation). */
export type Field =
  | { kind: 'text'; key: string; title: string; description?: string; required: boolean; format?: 'email' | 'uri' | 'date' | 'date-time'; minLength?: number; maxLength?: number; pattern?: string; default?: string }
  | { kind: 'number'; key: string; title: string; description?: string; required: boolean; integer: boolean; minimum?: number; maximum?: number; default?: number }
  | { kind: 'boolean'; key: string; title: string; description?: string; required: boolean; default?: boolean }
  | { kind: 'select'; key: string; title: string; description?: string; required: boolean; choices: { value: string; title: string }[]; default?: string }
  | { kind: 'multi'; key: string; title: string; description?: string; required: boolean; choices: { value: string; title: string }[]; minItems?: number; maxItems?: number; default?: string[] }
  | { kind: 'unsupported'; key: string; title: string; description?: string; required: boolean; raw: unknown; why: string };

export type Value = string | number | boolean | string[] | undefined;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const text = (v: unknown) => (typeof v === 'string' ? v : undefined);

function choicesOf(list: unknown): { value: string; title: string }[] | null {
  if (!Array.isArray(list)) return null;
  const choices = list.filter(isObject).filter((c) => typeof c.const === 'string').map((c) => ({ value: String(c.const), title: text(c.title) ?? String(c.const) }));
  return choices.length ? choices : null;
}

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
      if (Array.isArray(p.enum)) return { ...base, kind: 'select', choices: p.enum.map((v) => ({ value: String(v), title: String(v) })), default: text(p.default) };
      const format = text(p.format);
      if (format && !['email', 'uri', 'date', 'date-time'].includes(format)) {
        return { ...base, kind: 'unsupported', raw, why: `string format “${format}”` };
      }
      return {
        ...base,
        kind: 'text',
        format: format as 'email' | 'uri' | 'date' | 'date-time' | undefined,
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
      const choices = anyOf ?? (items.type === 'string' && Array.isArray(items.enum) ? items.enum.map((v) => ({ value: String(v), title: String(v) })) : null);
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

/** The problem with a value, in words, or null. */
export function validate(field: Field, value: Value): string | null {
  const empty = value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
  if (field.kind === 'unsupported') return null;
  if (empty) {
    if (field.required && field.kind !== 'boolean') return `${field.title} is required.`;
    if (field.kind === 'multi' && field.minItems && field.required) return `Choose at least ${field.minItems}.`;
    return null;
  }
  switch (field.kind) {
    case 'text': {
      const s = String(value);
      if (field.minLength !== undefined && s.length < field.minLength) return `Use at least ${field.minLength} characters.`;
      if (field.maxLength !== undefined && s.length > field.maxLength) return `Use at most ${field.maxLength} characters.`;
      if (field.format === 'email' && !EMAIL.test(s)) return 'Enter an email address, like name@example.com.';
      if (field.format === 'uri') {
        try {
          new URL(s);
        } catch {
          return 'Enter a full address, like https://example.com.';
        }
      }
      if (field.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(s)) return 'Enter a date.';
      if (field.format === 'date-time' && Number.isNaN(Date.parse(s))) return 'Enter a date and time.';
      if (field.pattern) {
        try {
          if (!new RegExp(field.pattern, 'u').test(s)) return `Must match the pattern ${field.pattern}.`;
        } catch {
          /* a pattern we cannot compile: the agent checks it */
        }
      }
      return null;
    }
    case 'number': {
      const n = Number(value);
      if (!Number.isFinite(n)) return 'Enter a number.';
      if (field.integer && !Number.isInteger(n)) return 'Enter a whole number.';
      if (field.minimum !== undefined && n < field.minimum) return `Must be at least ${field.minimum}.`;
      if (field.maximum !== undefined && n > field.maximum) return `Must be at most ${field.maximum}.`;
      return null;
    }
    case 'select':
      return field.choices.some((c) => c.value === value) ? null : 'Choose one of the options.';
    case 'multi': {
      const list = value as string[];
      if (field.minItems !== undefined && list.length < field.minItems) return `Choose at least ${field.minItems}.`;
      if (field.maxItems !== undefined && list.length > field.maxItems) return `Choose at most ${field.maxItems}.`;
      return null;
    }
    default:
      return null;
  }
}

/** The answer's `content`: typed values, empty optional fields left out. */
export function toContent(fields: Field[], values: Record<string, Value>): Record<string, unknown> {
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
