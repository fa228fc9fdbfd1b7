import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { UserError } from '../errors/errors';

/** What one `git` run answered. */
export interface GitResult {
  stdout: string;
  stderr: string;
  /** The exit code (0: success). */
  code: number;
}

/** Which `git` runs (a test may point at another binary); the system's `git` on PATH by default. */
let gitBinary = 'git';

/** Tests only: run another binary as git (a missing one, a script that prints an old version). */
export function setGitBinary(binary: string): void {
  gitBinary = binary;
}

/**
 * Runs the system `git` with arguments (never through a shell, so branch names and paths are
 * never interpreted). Resolves with the exit code instead of throwing: callers decide what a
 * non-zero code means (`merge-tree` answers 1 for "conflicts"). A git that cannot start at all
 * rejects with a UserError naming the cause.
 */
export function git(args: string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<GitResult> {
  // A missing working folder makes the spawn fail with ENOENT, which would read as "no git".
  if (!existsSync(cwd)) return Promise.reject(new UserError(`The folder ${cwd} does not exist.`));
  return new Promise((resolve, reject) => {
    execFile(
      gitBinary,
      args,
      {
        cwd,
        // No pager, no prompts for credentials or editors: the app is not a terminal.
        env: { ...process.env, ...env, GIT_TERMINAL_PROMPT: '0', GIT_EDITOR: 'true', GIT_PAGER: 'cat', LC_ALL: 'C' },
        maxBuffer: 64 * 1024 * 1024,
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        const code = (error as (NodeJS.ErrnoException & { code?: unknown }) | null)?.code;
        if (typeof code === 'string') {
          reject(new UserError(code === 'ENOENT' ? 'git is not installed (no `git` on PATH).' : `git could not start: ${code}.`));
          return;
        }
        resolve({ stdout, stderr, code: error ? (typeof code === 'number' ? code : 1) : 0 });
      },
    );
  });
}

/** Runs git and answers its stdout; a non-zero exit becomes a UserError with git's own words. */
export async function gitOk(args: string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<string> {
  const result = await git(args, cwd, env);
  if (result.code !== 0) throw new UserError(`git ${args[0]} failed: ${(result.stderr || result.stdout).trim() || `exit code ${result.code}`}`);
  return result.stdout;
}
