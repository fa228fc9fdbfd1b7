/**
 * Claude's ACP adapters: the `_meta["terminal-auth"]` sign-in of the older adapter, and
 * `IS_SANDBOX=1` when the app runs as root (they refuse to start as root without it).
 *
 * Claude Code's ACP adapter (`@zed-industries/claude-code-acp`, 0.16 in the registry
 * snapshot) predates terminal auth methods (`type: "terminal"`, rfds-auth-methods). Its one
 * method, `claude-login`, has no type, and `authenticate` answers "Method not implemented".
 * When the client declares `clientCapabilities._meta["terminal-auth"]` (Zed's extension), the
 * method carries `_meta["terminal-auth"]: { command, args, env?, label }`: a command to run in
 * an interactive terminal. We declare that capability and treat such a method as a terminal
 * method that runs the given command instead of the agent's own (shown in full in the terminal
 * header before anything is typed). Other agents may use the same extension; it is harmless
 * for agents that ignore it.
 */
import { z } from 'zod';

/** Added to `clientCapabilities._meta` at `initialize`. */
export const LEGACY_TERMINAL_AUTH_CAPABILITY = { 'terminal-auth': true } as const;

export interface LegacyTerminalAuth {
  command: string;
  args: string[];
  env: Record<string, string>;
  label?: string;
}

/** The extension as the adapter sends it: a command is required, the rest is read when it has its type. */
const terminalAuthMeta = z.object({
  _meta: z.object({
    'terminal-auth': z.object({
      command: z.string().min(1),
      args: z.array(z.unknown()).optional().catch(undefined),
      env: z.record(z.string(), z.unknown()).optional().catch(undefined),
      label: z.string().optional().catch(undefined),
    }),
  }),
});

/** The `_meta["terminal-auth"]` command of an auth method, if it has a usable one. */
export function legacyTerminalAuth(method: { _meta?: unknown }): LegacyTerminalAuth | null {
  const parsed = terminalAuthMeta.safeParse(method);
  if (!parsed.success) return null;
  const { command, args, env, label } = parsed.data._meta['terminal-auth'];
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(env ?? {})) if (typeof value === 'string') environment[name] = value;
  return {
    command,
    args: (args ?? []).map(String),
    env: environment,
    ...(label !== undefined ? { label } : {}),
  };
}

/**
 * Claude's ACP adapters (`@zed-industries/claude-code-acp`, `@agentclientprotocol/claude-agent-acp`)
 * start Claude Code with the "bypass permissions" mode available, and Claude Code refuses that
 * as root unless `IS_SANDBOX=1` ("--dangerously-skip-permissions cannot be used with root/sudo
 * privileges", `startupFailureReason: "bypass_root"`): the agent exits before `initialize`.
 * Only when the app itself runs as root (containers, root shells) it starts them with
 * `IS_SANDBOX=1`, unless the person set the variable; the mode the session starts in is
 * unchanged. A normal user's environment is left as it is.
 */
export function claudeRootEnv(
  agentId: string,
  launch: { command: string; args: string[]; env: Record<string, string> },
  isRoot: boolean,
  hostEnv: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  if (!isRoot || 'IS_SANDBOX' in launch.env || hostEnv.IS_SANDBOX !== undefined) return {};
  const named = [agentId, launch.command, ...launch.args].some((part) => /claude-(code|agent)-acp/i.test(part));
  return named ? { IS_SANDBOX: '1' } : {};
}
