import { describe, expect, it } from 'vitest';
import { jsonObjectSchema, toJson } from './json';

describe('JSON read as JSON', () => {
  it('toJson gives what JSON.stringify writes (undefined members dropped, null in arrays, toJSON called)', () => {
    const built = { a: 1, b: undefined, c: [1, undefined, () => 0], d: { e: Number.NaN, f: new Date(0) }, g: () => 0 };
    expect(toJson(built)).toEqual(JSON.parse(JSON.stringify(built)));
    expect(JSON.stringify(toJson(built))).toBe(JSON.stringify(built));
  });

  it('an object must arrive where one is expected: arrays, text and numbers are refused', () => {
    expect(jsonObjectSchema.safeParse({ agents: [{ id: 'x' }], theme: 'dark' }).success).toBe(true);
    for (const bad of [[], 'text', 3, null]) expect(jsonObjectSchema.safeParse(bad).success).toBe(false);
  });
});
