/** Any JSON object as received; we never narrow what we don't understand. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type RawObject = Record<string, unknown>;

/** ACP content block as sent (text, image, resource_link, …, or a future type). */
export type ContentBlock = RawObject & { type: string };
