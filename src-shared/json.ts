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
