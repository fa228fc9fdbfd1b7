/** Any JSON object as received; we never narrow what we don't understand. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type RawObject = Record<string, unknown>;
