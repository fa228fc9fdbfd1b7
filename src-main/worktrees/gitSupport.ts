import { git } from './git';

/**
 * The oldest git the worktree sessions accept. `git worktree add/remove/prune` need 2.17, but
 * "Merge into base" relies on `git merge-tree --write-tree` (2.38): it computes the merge,
 * conflicts included, without touching any branch, index or working tree, which is what lets
 * the app promise that a conflicting merge leaves the base exactly as it was. One floor for the
 * whole feature is simpler to explain than an option that half works.
 */
export const MIN_GIT: readonly [number, number] = [2, 38];

/** Whether worktree sessions can work here, and why not. */
export interface GitSupport {
  ok: boolean;
  /** `git --version`'s number, when git ran. */
  version: string | null;
  /** Why the option is disabled (shown as is). */
  reason: string | null;
}

/** Parses `git version 2.39.5` (also `2.39.5.windows.1`, `2.37.1 (Apple Git-137.1)`). */
export function parseGitVersion(text: string): [number, number, number] | null {
  const match = /git version (\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)] : null;
}

let cached: Promise<GitSupport> | null = null;

/** Checks the system git once per process (tests reset it with `resetGitSupport`). */
export function gitSupport(): Promise<GitSupport> {
  cached ??= probe();
  return cached;
}

export function resetGitSupport(): void {
  cached = null;
}

async function probe(): Promise<GitSupport> {
  let stdout: string;
  try {
    const result = await git(['--version'], process.cwd());
    stdout = result.stdout;
    if (result.code !== 0) return { ok: false, version: null, reason: `git --version failed: ${result.stderr.trim() || `exit code ${result.code}`}` };
  } catch (error) {
    return { ok: false, version: null, reason: `${(error as Error).message} Worktree sessions need git ${MIN_GIT.join('.')} or newer.` };
  }
  const version = parseGitVersion(stdout);
  if (!version) return { ok: false, version: null, reason: `Unrecognised git version: ${stdout.trim().slice(0, 100)}` };
  const text = version.join('.');
  const [major, minor] = version;
  if (major < MIN_GIT[0] || (major === MIN_GIT[0] && minor < MIN_GIT[1])) {
    return { ok: false, version: text, reason: `git ${text} is too old: worktree sessions need git ${MIN_GIT.join('.')} or newer.` };
  }
  return { ok: true, version: text, reason: null };
}
