/**
 * Qwen Code: its `_meta.type: "terminal"` sign-in hint becomes a terminal sign-in method.
 *
 * Qwen Code puts the terminal sign-in hint in `_meta` instead of the typed fields
 * (rfds-auth-methods): `{ id: "openai", name: "Use OpenAI API key", _meta: { type: "terminal",
 * args: ["--auth-type=openai"] } }`. Such a method is a `terminal` method: the agent's own
 * command with those args (and `_meta.env`) in an interactive terminal.
 */
import { z } from 'zod';

/** The hint as Qwen Code sends it; `args` and `env` are read when they have their type. */
const terminalHint = z.object({
  type: z.undefined().optional(),
  _meta: z.object({
    type: z.literal('terminal'),
    args: z.array(z.unknown()).optional().catch(undefined),
    env: z.record(z.string(), z.json()).optional().catch(undefined),
  }),
});

export function metaTerminalMethod<M extends { type?: unknown; _meta?: unknown }>(method: M): (M & { type: 'terminal'; args: string[] }) | null {
  const parsed = terminalHint.safeParse(method);
  if (!parsed.success) return null;
  const { args, env } = parsed.data._meta;
  return {
    ...method,
    type: 'terminal',
    args: (args ?? []).map(String),
    ...(env ? { env } : {}),
  };
}
