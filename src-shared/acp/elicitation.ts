/**
 * The one reading of a form-mode elicitation's `requestedSchema` (rfds-elicitation: a restricted
 * JSON Schema) and the one validator of an answer to it. The form in the renderer and the check
 * in main both call `validate`, so an answer the form lets through is one main accepts, and the
 * other way round.
 */

import { isObject, num, str as text } from './read';
import type { Json } from '../session/raw';

/** An answer's content: JSON values by field key (the same type as `ElicitationContent`). */
type JsonObject = { [key: string]: Json };
import { parseUrl } from './url';

/** One field of the form. `unsupported`: outside the restricted subset; shown raw, never checked. */
export type Field =
  | {
      kind: 'text';
      key: string;
      title: string;
      description?: string;
      required: boolean;
      format?: TextFormat;
      minLength?: number;
      maxLength?: number;
      pattern?: string;
      default?: string;
    }
  | {
      kind: 'number';
      key: string;
      title: string;
      description?: string;
      required: boolean;
      integer: boolean;
      minimum?: number;
      maximum?: number;
      default?: number;
    }
  | { kind: 'boolean'; key: string; title: string; description?: string; required: boolean; default?: boolean }
  | { kind: 'select'; key: string; title: string; description?: string; required: boolean; choices: Choice[]; default?: string }
  | {
      kind: 'multi';
      key: string;
      title: string;
      description?: string;
      required: boolean;
      choices: Choice[];
      minItems?: number;
      maxItems?: number;
      default?: string[];
    }
  | { kind: 'unsupported'; key: string; title: string; description?: string; required: boolean; raw: unknown; why: string };

export type TextFormat = 'email' | 'uri' | 'date' | 'date-time';
export const KNOWN_TEXT_FORMATS: readonly TextFormat[] = ['email', 'uri', 'date', 'date-time'];
export type Choice = { value: string; title: string };

/** A value as the form holds it (numbers may still be the text typed) or as an answer carries it. */
export type Value = string | number | boolean | string[] | undefined;

function choicesOf(list: unknown): Choice[] | null {
  if (!Array.isArray(list)) return null;
  const choices = list
    .filter(isObject)
    .filter((c) => typeof c.const === 'string')
    .map((c) => ({ value: String(c.const), title: text(c.title) ?? String(c.const) }));
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

/** What is wrong with a value: the one verdict, worded for the form or for main's error. */
export type Problem =
  | { code: 'required' | 'email' | 'uri' | 'date' | 'date-time' | 'not-number' | 'not-integer' | 'not-text' | 'not-boolean' | 'not-list' }
  | { code: 'min-length' | 'max-length' | 'minimum' | 'maximum' | 'min-items' | 'max-items'; limit: number }
  | { code: 'pattern'; pattern: string }
  | { code: 'not-choice' | 'not-choices'; allowed: string[] };

/** The problem with one field's value, or null. Shared by the form (typed text) and main (an answer's values). */
export function check(field: Field, value: Value | null): Problem | null {
  if (field.kind === 'unsupported') return null;
  if (isMissing(value)) return field.required ? { code: 'required' } : null;
  switch (field.kind) {
    case 'text': {
      if (typeof value !== 'string') return { code: 'not-text' };
      if (field.minLength !== undefined && value.length < field.minLength) return { code: 'min-length', limit: field.minLength };
      if (field.maxLength !== undefined && value.length > field.maxLength) return { code: 'max-length', limit: field.maxLength };
      if (field.format === 'email' && !EMAIL.test(value)) return { code: 'email' };
      if (field.format === 'uri' && !isUrl(value)) return { code: 'uri' };
      if (field.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return { code: 'date' };
      if (field.format === 'date-time' && Number.isNaN(Date.parse(value))) return { code: 'date-time' };
      if (field.pattern && !safeTest(field.pattern, value)) return { code: 'pattern', pattern: field.pattern };
      return null;
    }
    case 'number': {
      const n = Number(value);
      if (typeof value === 'boolean' || Array.isArray(value) || !Number.isFinite(n)) return { code: 'not-number' };
      if (field.integer && !Number.isInteger(n)) return { code: 'not-integer' };
      if (field.minimum !== undefined && n < field.minimum) return { code: 'minimum', limit: field.minimum };
      if (field.maximum !== undefined && n > field.maximum) return { code: 'maximum', limit: field.maximum };
      return null;
    }
    case 'boolean':
      return typeof value === 'boolean' ? null : { code: 'not-boolean' };
    case 'select':
      return typeof value === 'string' && field.choices.some((c) => c.value === value)
        ? null
        : { code: 'not-choice', allowed: field.choices.map((c) => c.value) };
    case 'multi': {
      if (!Array.isArray(value)) return { code: 'not-list' };
      if (value.some((item) => !field.choices.some((c) => c.value === item))) return { code: 'not-choices', allowed: field.choices.map((c) => c.value) };
      if (field.minItems !== undefined && value.length < field.minItems) return { code: 'min-items', limit: field.minItems };
      if (field.maxItems !== undefined && value.length > field.maxItems) return { code: 'max-items', limit: field.maxItems };
      return null;
    }
  }
}

/** The problem as the form says it, under its field. */
export function formMessage(field: Field, problem: Problem): string {
  switch (problem.code) {
    case 'required':
      return `${field.title} is required.`;
    case 'min-length':
      return `Use at least ${problem.limit} characters.`;
    case 'max-length':
      return `Use at most ${problem.limit} characters.`;
    case 'email':
      return 'Enter an email address, like name@example.com.';
    case 'uri':
      return 'Enter a full address, like https://example.com.';
    case 'date':
      return 'Enter a date.';
    case 'date-time':
      return 'Enter a date and time.';
    case 'pattern':
      return `Must match the pattern ${problem.pattern}.`;
    case 'not-number':
      return 'Enter a number.';
    case 'not-integer':
      return 'Enter a whole number.';
    case 'minimum':
      return `Must be at least ${problem.limit}.`;
    case 'maximum':
      return `Must be at most ${problem.limit}.`;
    case 'not-choice':
      return 'Choose one of the options.';
    case 'not-choices':
      return `Choose only from: ${problem.allowed.join(', ')}.`;
    case 'min-items':
      return `Choose at least ${problem.limit}.`;
    case 'max-items':
      return `Choose at most ${problem.limit}.`;
    case 'not-text':
      return 'Enter text.';
    case 'not-boolean':
      return 'Choose yes or no.';
    case 'not-list':
      return 'Choose from the list.';
  }
}

/** The problem as main's error to an answer says it (the field named, in quotes). */
export function answerMessage(field: Field, problem: Problem): string {
  const what = `"${field.title}"`;
  switch (problem.code) {
    case 'required':
      return `${what} is required.`;
    case 'min-length':
      return `${what} needs at least ${problem.limit} characters.`;
    case 'max-length':
      return `${what} allows at most ${problem.limit} characters.`;
    case 'email':
      return `${what} must be an email address.`;
    case 'uri':
      return `${what} must be a full URL.`;
    case 'date':
      return `${what} must be a date (YYYY-MM-DD).`;
    case 'date-time':
      return `${what} must be a date and time.`;
    case 'pattern':
      return `${what} does not have the expected form.`;
    case 'not-number':
      return `${what} must be a number.`;
    case 'not-integer':
      return `${what} must be a whole number.`;
    case 'minimum':
      return `${what} must be at least ${problem.limit}.`;
    case 'maximum':
      return `${what} must be at most ${problem.limit}.`;
    case 'not-choice':
      return `${what} must be one of ${problem.allowed.join(', ')}.`;
    case 'not-choices':
      return `${what} may only contain ${problem.allowed.join(', ')}.`;
    case 'min-items':
      return `${what} needs at least ${problem.limit} choices.`;
    case 'max-items':
      return `${what} allows at most ${problem.limit} choices.`;
    case 'not-text':
      return `${what} must be text.`;
    case 'not-boolean':
      return `${what} must be yes or no.`;
    case 'not-list':
      return `${what} must be a list.`;
  }
}

/** The problem with a value as the form shows it, or null. */
export function validate(field: Field, value: Value): string | null {
  const problem = check(field, value);
  return problem && formMessage(field, problem);
}

function isUrl(value: string): boolean {
  return parseUrl(value) !== null;
}

function safeTest(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(value);
  } catch {
    return true; // a pattern JavaScript cannot compile is not the person's fault: the agent checks it
  }
}

/** The problems of a whole form, by field key. */
export function formCheck(fields: readonly Field[], values: Readonly<Record<string, Value>>): Record<string, Problem> {
  const found: Record<string, Problem> = {};
  for (const field of fields) {
    const problem = check(field, values[field.key]);
    if (problem) found[field.key] = problem;
  }
  return found;
}

/** The problems of a whole form in the form's words, by field key (what the form shows). */
export function formProblems(fields: readonly Field[], values: Readonly<Record<string, Value>>): Record<string, string> {
  const problems = formCheck(fields, values);
  return Object.fromEntries(fields.filter((f) => problems[f.key]).map((f) => [f.key, formMessage(f, problems[f.key])]));
}

/** The answer's `content`: typed values, empty optional fields left out. */
export function toContent(fields: readonly Field[], values: Readonly<Record<string, Value>>): JsonObject {
  const content: JsonObject = {};
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

/** An answer's problems, by field key (`key` alone: a key that is no field asked for). */
export type AnswerProblem = { key: string; field: Field; problem: Problem } | { key: string; field: null; problem: null };

/**
 * Checks a form-mode answer's `content` (as it arrives in main) against the request: every key
 * must be a field asked for, and every field's value passes `check`. Fields of a type this app
 * does not know pass through unchecked. Numbers must arrive as numbers (the form converts them).
 */
export function answerProblems(schema: unknown, content: Readonly<JsonObject>): AnswerProblem[] {
  const fields = parseSchema(schema);
  const problems: AnswerProblem[] = [];
  for (const key of Object.keys(content)) {
    if (!fields.some((f) => f.key === key)) problems.push({ key, field: null, problem: null });
  }
  for (const field of fields) {
    const value = content[field.key];
    const problem: Problem | null =
      field.kind === 'number' && typeof value === 'string' && value !== '' ? { code: 'not-number' } : check(field, value as Value | null);
    if (problem) problems.push({ key: field.key, field, problem });
  }
  return problems;
}

/** `answerProblems` in words, for main's error to the renderer. */
export function checkAnswer(schema: unknown, content: Readonly<JsonObject>): string[] {
  return answerProblems(schema, content).map((p) => (p.field ? answerMessage(p.field, p.problem) : `"${p.key}" is not one of the fields asked for.`));
}
