/** Small readers for values as they came off the wire: wrong types read as absent, never throw. */

import type { RawObject } from '../session/raw';

/** The one object type for wire values (defined in `session/raw.ts`), under the short name the readers use. */
export type Raw = RawObject;

export function isObject(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
export const obj = (value: unknown): Raw => (isObject(value) ? value : {});
export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
export const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
export const objects = (value: unknown): Raw[] => (Array.isArray(value) ? value.filter(isObject) : []);
