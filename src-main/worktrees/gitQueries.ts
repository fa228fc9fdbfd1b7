import type { WorktreeChange, WorktreeCommit } from '../../src-shared/ipc/worktreeContract';
import { git, gitOk } from './git';

/** One entry of `git worktree list --porcelain`. */
export interface ListedWorktree {
  path: string;
  head: string | null;
  /** `refs/heads/…` stripped; null when detached or bare. */
  branch: string | null;
}

/** Parses `git worktree list --porcelain` (blocks separated by blank lines; the main working tree first). */
export function parseWorktreeList(text: string): ListedWorktree[] {
  const list: ListedWorktree[] = [];
  for (const block of text.split(/\n\n+/)) {
    const lines = block.split('\n').filter(Boolean);
    const path = lines.find((line) => line.startsWith('worktree '))?.slice('worktree '.length);
    if (!path) continue;
    const head = lines.find((line) => line.startsWith('HEAD '))?.slice(5) ?? null;
    const ref = lines.find((line) => line.startsWith('branch '))?.slice(7) ?? null;
    list.push({ path, head, branch: ref?.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : ref });
  }
  return list;
}

export async function listWorktrees(repo: string): Promise<ListedWorktree[]> {
  return parseWorktreeList(await gitOk(['worktree', 'list', '--porcelain'], repo));
}

/** Parses `git status --porcelain=v1 -z`: a rename's second path (its source) is skipped. */
export function parseStatus(text: string): WorktreeChange[] {
  const parts = text.split('\0');
  const changes: WorktreeChange[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part.length < 4) continue;
    const status = part.slice(0, 2);
    changes.push({ path: part.slice(3), status });
    if (status[0] === 'R' || status[0] === 'C') i++;
  }
  return changes;
}

/** Changes in a working tree, new files included; `skip` leaves out paths (the copied setting files). */
export async function uncommittedChanges(tree: string, skip: readonly string[] = []): Promise<WorktreeChange[]> {
  const out = await gitOk(['status', '--porcelain=v1', '-z', '--untracked-files=all'], tree);
  return parseStatus(out).filter((change) => !(change.status === '??' && skip.includes(change.path)));
}

/** Whether a working tree has changes to tracked files (untracked files are git's to protect: a merge refuses to overwrite them). */
export async function hasTrackedChanges(tree: string): Promise<boolean> {
  return (await gitOk(['status', '--porcelain', '--untracked-files=no'], tree)).trim() !== '';
}

/** Commits on `tip` that `not` lacks (newest first). */
export async function commitsBetween(repo: string, not: string[], tip: string): Promise<WorktreeCommit[]> {
  const out = await gitOk(['log', '--format=%H%x09%s', tip, '--not', ...not, '--'], repo);
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const tab = line.indexOf('\t');
      return { sha: line.slice(0, tab), subject: line.slice(tab + 1) };
    });
}

/** The commit a ref names, or null when it does not exist. */
export async function resolveCommit(repo: string, ref: string): Promise<string | null> {
  const result = await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], repo);
  return result.code === 0 ? result.stdout.trim() : null;
}

export async function isAncestor(repo: string, ancestor: string, descendant: string): Promise<boolean> {
  const result = await git(['merge-base', '--is-ancestor', ancestor, descendant], repo);
  if (result.code > 1) throw new Error(`git merge-base failed: ${result.stderr.trim()}`);
  return result.code === 0;
}

/** `pathspec` magic that leaves the given files out of `git add` (literal names, never globs). */
export function excludeSpecs(paths: readonly string[]): string[] {
  return paths.map((path) => `:(exclude,literal)${path}`);
}
