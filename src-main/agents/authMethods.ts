import type { AuthMethodInfo, RawObject } from '../../src-shared/session/events';
import { legacyTerminalAuth } from './quirks/claudeCodeAcp';

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
      // A method without a type is `agent`, unless it carries the legacy terminal-auth command.
      type: typeof method.type === 'string' ? method.type : legacyTerminalAuth(method) ? 'terminal' : 'agent',
      raw: method,
    }))
    .filter((method) => method.id !== '');
}
