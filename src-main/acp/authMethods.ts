import { isObject, obj, str } from '../../src-shared/acp/read';
import type { AuthMethodInfo } from '../../src-shared/session/controls';
import { decodeAuthMethod } from './decode/controls';
import type { Raw } from '../../src-shared/acp/read';
import { legacyTerminalAuth } from '../quirks/claudeCodeAcp';
import { API_KEY_VARIABLES } from '../quirks/geminiCli';
import { metaTerminalMethod } from '../quirks/qwenCode';

/**
 * Normalizes the `authMethods` of an `initialize` answer. A method without `type` is the
 * `agent` kind; an unknown type is kept with its raw JSON so the UI can list it generically.
 * Hints agents put in `_meta` give an untyped method the UI it needs (quirks/ one file per
 * agent): a key field (`_meta["api-key"]`, Gemini), a terminal (`_meta.type: "terminal"`,
 * Qwen Code; `_meta["terminal-auth"]`, Claude Code).
 */
export function toAuthMethods(raw: unknown): AuthMethodInfo[] {
  if (!Array.isArray(raw)) return [];
  return raw
    .filter(isObject)
    .map((original) => {
      const method = fromMetaHints(original);
      // A method without a type is `agent`, unless it carries the legacy terminal-auth command.
      const type = typeof method.type === 'string' ? method.type : legacyTerminalAuth(method) ? 'terminal' : 'agent';
      return { ...decodeAuthMethod(method, type), name: typeof method.name === 'string' ? method.name : String(method.id ?? 'Sign in') };
    })
    .filter((method) => method.id !== '');
}

/** An untyped method with a `_meta` hint, as the typed method it stands for (the hint kept in `_meta`). */
function fromMetaHints(method: Raw): Raw {
  const terminal = metaTerminalMethod(method);
  if (terminal) return terminal;
  const variable = apiKeyVariable(method);
  if (variable) return { ...method, type: 'env_var', vars: [{ name: variable, label: String(method.name ?? variable), secret: true }] };
  return method;
}

/** The environment variable an untyped `_meta["api-key"]` method takes: known per provider, else named in its description. */
function apiKeyVariable(method: Raw): string | null {
  if (method.type !== undefined) return null;
  const meta = method._meta;
  if (!isObject(meta) || !('api-key' in meta)) return null;
  const provider = str(obj(meta['api-key']).provider);
  if (provider && API_KEY_VARIABLES[provider.toLowerCase()]) return API_KEY_VARIABLES[provider.toLowerCase()];
  const named = typeof method.description === 'string' ? /`([A-Z][A-Z0-9_]*(?:KEY|TOKEN))`/.exec(method.description) : null;
  if (named) return named[1];
  return /gemini/i.test(String(method.id ?? '')) ? 'GEMINI_API_KEY' : null;
}
