/**
 * `URL` exists in both hosts (Node and the browser), but src-shared is typed without either's
 * globals: this declares the part of the WHATWG `URL` class the shared code uses.
 */
declare const URL: new (value: string) => { readonly protocol: string; readonly href: string };

/** The value parsed as a URL, or null when it is not one. */
export function parseUrl(value: string): { protocol: string; href: string } | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}
