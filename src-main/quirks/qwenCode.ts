/**
 * Qwen Code: its `_meta.type: "terminal"` sign-in hint becomes a terminal sign-in method.
 *
 * Qwen Code puts the terminal sign-in hint in `_meta` instead of the typed fields
 * (rfds-auth-methods): `{ id: "openai", name: "Use OpenAI API key", _meta: { type: "terminal",
 * args: ["--auth-type=openai"] } }`. Such a method is a `terminal` method: the agent's own
 * command with those args (and `_meta.env`) in an interactive terminal.
 */
import { isObject, type Raw } from '../../src-shared/acp/read';

export function metaTerminalMethod(method: Raw): Raw | null {
  const meta = method._meta;
  if (method.type !== undefined || !isObject(meta) || meta.type !== 'terminal') return null;
  return {
    ...method,
    type: 'terminal',
    args: Array.isArray(meta.args) ? meta.args.map(String) : [],
    ...(isObject(meta.env) ? { env: meta.env } : {}),
  };
}
