import { z } from 'zod';
import type { Json } from './session/raw';

export type { Json };

/** A JSON object as read from a file or a message: any keys, JSON values. */
export type JsonObject = { [key: string]: Json };

export function isJsonObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON object, checked (for values that arrive as `unknown`: a parsed file, an IPC payload). */
export const jsonObjectSchema: z.ZodType<JsonObject> = z.record(z.string(), z.json());

/** `JSON.parse` as what it returns: JSON (throws on text that is not JSON, as `JSON.parse` does). */
export function parseJson(text: string): Json {
  return JSON.parse(text) as Json;
}

/**
 * A value as `JSON.stringify` writes it, as JSON: `toJSON()` is called, object members that are
 * `undefined`, functions or symbols are left out, in arrays they are `null`, and numbers that
 * are not finite are `null`. For messages the app built itself (they may hold `undefined`).
 */
export function toJson(value: unknown): Json {
  return toJsonOr(value) ?? null;
}

function toJsonOr(value: unknown): Json | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'object') return undefined;
  if ('toJSON' in value && typeof value.toJSON === 'function') return toJsonOr(value.toJSON());
  if (Array.isArray(value)) return value.map((item) => toJsonOr(item) ?? null);
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    const json = toJsonOr(item);
    if (json !== undefined) out[key] = json;
  }
  return out;
}
