/**
 * Qwen Code: its `_meta.type: "terminal"` sign-in hint becomes a terminal sign-in method.
 *
 * Qwen Code puts the terminal sign-in hint in `_meta` instead of the typed fields
 * (rfds-auth-methods): `{ id: "openai", name: "Use OpenAI API key", _meta: { type: "terminal",
 * args: ["--auth-type=openai"] } }`. Such a method is a `terminal` method: the agent's own
 * command with those args (and `_meta.env`) in an interactive terminal.
 */
type RawObject = Record<string, unknown>;

export function metaTerminalMethod(method: RawObject): RawObject | null {
  const meta = method._meta;
  if (method.type !== undefined || typeof meta !== 'object' || meta === null) return null;
  const { type, args, env } = meta as RawObject;
  if (type !== 'terminal') return null;
  return {
    ...method,
    type: 'terminal',
    args: Array.isArray(args) ? args.map(String) : [],
    ...(typeof env === 'object' && env !== null ? { env } : {}),
  };
}
