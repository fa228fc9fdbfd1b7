import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { OrphanWorktree, WorktreeInfo } from '../../src-shared/ipc/worktreeContract';
import { git } from './git';
import { commitsBetween, listWorktrees, uncommittedChanges } from './gitQueries';

export interface OrphanScan {
  /** The app's own worktrees folder: every folder in it is the app's. */
  appFolder: string;
  /** Worktrees recorded with sessions (they may live in a folder the person set). */
  records: [string, WorktreeInfo][];
  /** Whether a session still exists (its log is there). */
  sessionExists: (sessionId: string) => boolean;
  isIgnored: (path: string) => boolean;
}

/**
 * Worktrees whose session is gone: recorded ones whose session log is missing, and folders in
 * the app's own worktrees folder that no session claims (a session deleted, a record lost). A
 * folder the person chose for worktrees is never scanned: it may hold their own checkouts.
 */
export async function findOrphans(scan: OrphanScan): Promise<OrphanWorktree[]> {
  const claimed = new Set<string>();
  const candidates = new Map<string, { reason: string; info?: WorktreeInfo }>();
  for (const [sessionId, info] of scan.records) {
    const path = resolve(info.path);
    if (scan.sessionExists(sessionId)) claimed.add(path);
    else candidates.set(path, { reason: 'Its session no longer exists.', info });
  }
  let names: string[] = [];
  try {
    names = readdirSync(scan.appFolder);
  } catch {
    // No worktrees folder yet: no worktree was ever made in it.
  }
  for (const name of names) {
    const path = resolve(scan.appFolder, name);
    if (name.startsWith('.') || claimed.has(path) || candidates.has(path)) continue;
    if (!isFolder(path)) continue;
    candidates.set(path, { reason: 'No session uses it.' });
  }
  const orphans: OrphanWorktree[] = [];
  for (const [path, { reason, info }] of candidates) {
    if (scan.isIgnored(path)) continue;
    orphans.push(await describe(path, reason, info));
  }
  return orphans;
}

/** What removing an orphan would lose: its uncommitted files, and commits no other branch has. */
async function describe(path: string, reason: string, info?: WorktreeInfo): Promise<OrphanWorktree> {
  const isTree = existsSync(join(path, '.git'));
  let repoRoot = info?.repoRoot ?? null;
  let branch = info?.branch ?? null;
  if (isTree) {
    const head = await git(['symbolic-ref', '--quiet', '--short', 'HEAD'], path);
    branch = head.code === 0 ? head.stdout.trim() : branch;
    const listed = await listWorktrees(path).catch(() => []);
    repoRoot = listed[0]?.path ?? repoRoot;
  }
  const uncommitted = isTree ? await uncommittedChanges(path, info?.copied ?? []).catch(() => []) : [];
  const commits =
    repoRoot && branch && existsSync(repoRoot)
      ? await commitsBetween(repoRoot, [`--exclude=refs/heads/${branch}`, '--branches'], `refs/heads/${branch}`).catch(() => [])
      : [];
  return {
    path,
    branch,
    repoRoot,
    reason: isTree ? reason : `${reason} It is not a git worktree (left by an interrupted operation).`,
    uncommitted,
    commits,
  };
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    // A dangling link or a file removed meanwhile: nothing to offer.
    return false;
  }
}
