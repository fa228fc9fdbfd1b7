import { KNOWN_AUTH_METHOD_TYPES, isKnown } from './known';
import { isObject, str, type Raw } from './read';

/** An `env_var` auth method's variable (rfds-auth-methods): the name, what to call it, whether it is secret. */
export type AuthVarView = { name: string; label: string; secret: boolean; optional: boolean };

export const isKnownAuthType = (type: string) => isKnown(KNOWN_AUTH_METHOD_TYPES, type);

export function authVars(raw: Raw): AuthVarView[] {
  const vars = Array.isArray(raw.vars) ? raw.vars : [];
  return vars
    .filter((v): v is Raw => isObject(v) && typeof v.name === 'string')
    .map((v) => ({ name: String(v.name), label: str(v.label) || String(v.name), secret: v.secret !== false, optional: v.optional === true }));
}

/** A method's `link` when it is an http(s) URL (anything else is not offered as a link). */
/** `URL` exists in both hosts (Node and the browser); src-shared is typed without either's globals. */
const UrlClass = (globalThis as unknown as { URL: new (value: string) => { protocol: string; href: string } }).URL;

export function authLink(raw: Raw): string | null {
  const link = str(raw.link);
  if (!link) return null;
  try {
    const url = new UrlClass(link);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}
