import type { AuthMethodInfo, RawObject } from '../../src-shared/session/events';

/**
 * Normalizes the `authMethods` of an `initialize` answer. A method without `type` is the
 * `agent` kind; an unknown type is kept with its raw JSON so the UI can list it generically.
 */
export function toAuthMethods(raw: unknown): AuthMethodInfo[] {
  if (!Array.isArray(raw)) return [];
  return raw
    .filter((method): method is RawObject => typeof method === 'object' && method !== null)
    .map((method) => ({
      id: typeof method.id === 'string' ? method.id : String(method.id ?? ''),
      name: typeof method.name === 'string' ? method.name : String(method.id ?? 'Sign in'),
      description: typeof method.description === 'string' ? method.description : null,
      type: typeof method.type === 'string' ? method.type : 'agent',
      raw: method,
    }))
    .filter((method) => method.id !== '');
}
