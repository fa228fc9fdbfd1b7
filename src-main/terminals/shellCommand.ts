import { existsSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { planSpawn, type SpawnPlan } from '../process/spawnCommand';

/**
 * How to start a `terminal/create` command. Agents such as Claude Code's adapter send the whole
 * command line as `command` with no `args` (`echo ok > out.txt && cat out.txt`); run as a
 * program name that fails with `execvp(3) failed`. Like Zed, a command without args that is
 * not an existing executable path goes through the platform shell (`$SHELL -c` / `cmd /c`);
 * a command with args is run as given (the protocol's program + argv form).
 */
export function planTerminalSpawn(
  command: string,
  args: readonly string[],
  platform: NodeJS.Platform,
  env: Record<string, string | undefined> = process.env,
): SpawnPlan {
  if (args.length > 0 || !needsShell(command)) return planSpawn(command, args, platform);
  if (platform === 'win32') {
    const comspec = env.ComSpec || env.COMSPEC || 'cmd.exe';
    return { file: comspec, args: ['/d', '/s', '/c', `"${command}"`], windowsVerbatimArguments: true };
  }
  const shell = env.SHELL && isAbsolute(env.SHELL) && existsSync(env.SHELL) ? env.SHELL : '/bin/sh';
  return { file: shell, args: ['-c', command], windowsVerbatimArguments: false };
}

/** A bare program name (`ls`) runs as is; a line with spaces or shell syntax needs a shell. */
function needsShell(command: string): boolean {
  if (!/[\s"'`$|&;<>(){}*?~\\]/.test(command)) return false;
  // A path to a program that happens to contain spaces (`/Applications/My Tool/bin/x`).
  try {
    return !(isAbsolute(command) && statSync(command).isFile());
  } catch {
    return true;
  }
}
