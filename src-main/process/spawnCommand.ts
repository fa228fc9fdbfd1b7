/**
 * How to spawn a command on a platform. On Windows, `npx`, `npm` and friends are `.cmd`
 * shims that `spawn` cannot run directly (EINVAL since Node 20.12's fix for CVE-2024-27980),
 * so they go through `cmd.exe /d /s /c` with every argument quoted for cmd.
 */
export interface SpawnPlan {
  file: string;
  args: string[];
  windowsVerbatimArguments: boolean;
}

const WINDOWS_SHIMS = /\.(cmd|bat)$/i;
const WINDOWS_BARE_SHIMS = new Set(['npx', 'npm', 'pnpm', 'yarn', 'uvx', 'corepack']);

export function planSpawn(command: string, args: readonly string[], platform: NodeJS.Platform): SpawnPlan {
  if (platform !== 'win32') return { file: command, args: [...args], windowsVerbatimArguments: false };
  const base = command.split(/[\\/]/).pop()?.toLowerCase() ?? command;
  const isShim = WINDOWS_SHIMS.test(base) || WINDOWS_BARE_SHIMS.has(base);
  if (!isShim) return { file: command, args: [...args], windowsVerbatimArguments: false };
  const line = [command, ...args].map(quoteForCmd).join(' ');
  return { file: 'cmd.exe', args: ['/d', '/s', '/c', `"${line}"`], windowsVerbatimArguments: true };
}

/** Quotes one argument for cmd.exe: CommandLineToArgvW rules, then cmd metacharacters escaped. */
export function quoteForCmd(arg: string): string {
  let quoted = arg;
  if (arg === '' || /[\s"]/.test(arg)) {
    quoted = '"' + arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\+)$/, '$1$1') + '"';
  }
  return quoted.replace(/[()%!^"<>&|]/g, '^$&');
}
