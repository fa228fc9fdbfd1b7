import { KNOWN_AUTH_METHOD_TYPES, isKnown } from './known';
import { isObject, str, type Raw } from './read';
import { parseUrl } from './url';

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
export function authLink(raw: Raw): string | null {
  const link = str(raw.link);
  const url = link ? parseUrl(link) : null;
  return url && (url.protocol === 'https:' || url.protocol === 'http:') ? url.href : null;
}
