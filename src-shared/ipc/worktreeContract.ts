import { z } from 'zod';
import { request } from './define';
import { sessionIdSchema } from './ids';

/**
 * Worktree sessions: a session that works in its own git worktree on its own branch, then is
 * reviewed, committed, merged into its base or discarded. Spread into `contract.ts`, so it is
 * still one table. See docs/WORKTREES.md.
 */

/** A session's worktree, as main keeps it with the session (`sessions/worktrees.json`). */
export interface WorktreeInfo {
  /** The worktree's folder (created by `git worktree add`). */
  path: string;
  /** The session's branch, e.g. `fixture/fix-login-3f9a`. */
  branch: string;
  /** The branch it was made from and merges into. */
  base: string;
  /** The commit the branch started at. */
  baseCommit: string;
  /** The repository's main working tree (where the person's checkout is). */
  repoRoot: string;
  /** The session's workspace folder: the worktree, or the same subfolder the person chose in the repository. */
  cwd: string;
  /** Files copied from the repository into the worktree (the `worktrees.copyFiles` setting), relative paths. */
  copied: string[];
  createdAt: number;
  /** The person chose Keep: the branch and worktree stay; the finishing actions are folded away. */
  kept?: boolean;
}

/** Whether a folder can start a worktree session, and with what defaults. */
export interface WorktreeProbe {
  /** False with `reason` when git is missing or too old, or the folder is not in a repository. */
  available: boolean;
  reason: string | null;
  gitVersion: string | null;
  repoRoot: string | null;
  /** The branch checked out in the folder (null: detached HEAD). */
  currentBranch: string | null;
  /** Local branches, the current one first. */
  branches: string[];
  /** A fresh branch name from the agent and a short slug (editable). */
  suggestedBranch: string | null;
  /** Where new worktrees go (the `worktrees.folder` setting, or `<data>/worktrees`). */
  folder: string | null;
}

/** One commit on the session's branch that the base does not have. */
export interface WorktreeCommit {
  sha: string;
  subject: string;
}

/** One changed path in the worktree (not committed yet); `status` is git's two-letter code (`??` new). */
export interface WorktreeChange {
  path: string;
  status: string;
}

/** The session's branch against its base. */
export interface WorktreeStatus {
  info: WorktreeInfo;
  /** False when the folder is gone (removed outside the app): only Discard is offered. */
  exists: boolean;
  /** Commits on the branch the base lacks (`unmerged`), and commits on the base the branch lacks. */
  ahead: number;
  behind: number;
  commits: WorktreeCommit[];
  uncommitted: WorktreeChange[];
  /** The whole change against the base (commits plus uncommitted work, new files included), as a git patch. */
  diff: string;
  diffTruncated: boolean;
  /** The working tree where the base branch is checked out (often the person's own checkout), if any. */
  baseCheckedOutIn: string | null;
  /** That working tree has changes to tracked files: merging would have to touch them, so it is refused. */
  baseDirty: boolean;
}

/** What "Merge into base" did. On `conflict` nothing changed anywhere. */
export interface WorktreeMergeResult {
  outcome: 'fastForward' | 'merged' | 'upToDate' | 'conflict';
  /** The files both sides changed in ways git cannot join (on `conflict`). */
  conflicts: string[];
  message: string;
}

/** A worktree under the app's folder whose session is gone (or a crash's leftover). */
export interface OrphanWorktree {
  path: string;
  branch: string | null;
  repoRoot: string | null;
  /** Why it is an orphan, for the person. */
  reason: string;
  uncommitted: WorktreeChange[];
  commits: WorktreeCommit[];
}

const id = z.string().min(1).max(200);
const path = z.string().min(1).max(4096);
const branch = z.string().min(1).max(250);
/** What the person confirmed losing: Discard refuses when there is more than that by now. */
const loss = z.object({ files: z.array(path).max(100_000), commits: z.array(z.string().max(64)).max(100_000) }).strict();

export const worktreeRequests = {
  'worktree.probe': request<WorktreeProbe>()(
    z.object({ cwd: path, agentId: id.optional() }).strict(),
    'Whether a workspace folder can start a worktree session (git present and new enough, folder in a repository), with its branches and a suggested branch name.',
  ),
  'worktree.newSession': request<{ sessionId: string }>()(
    z.object({ agentId: id, cwd: path, branch, base: branch }).strict(),
    'Create a worktree on a new branch from the base (copying the files of the `worktrees.copyFiles` setting) and start a session there.',
  ),
  'worktree.status': request<WorktreeStatus>()(
    z.object({ sessionId: sessionIdSchema }).strict(),
    "The session's branch against its base: commits, uncommitted changes, diff.",
  ),
  'worktree.commit': request<{ sha: string }>()(
    z.object({ sessionId: sessionIdSchema, message: z.string().trim().min(1).max(10_000) }).strict(),
    "Commit everything in the session's worktree (except the copied setting files) on its branch.",
  ),
  'worktree.merge': request<WorktreeMergeResult>()(
    z.object({ sessionId: sessionIdSchema }).strict(),
    'Merge the branch into its base: fast-forward when possible, else a merge commit; on conflicts nothing changes and the files are listed.',
  ),
  'worktree.open': request<{ path: string; opened: boolean }>()(
    z.object({ sessionId: sessionIdSchema }).strict(),
    "Open the worktree's folder in the system's file manager (desktop app; the browser host answers the path).",
  ),
  'worktree.discard': request<{ ok: true }>()(
    z.object({ sessionId: sessionIdSchema, lose: loss }).strict(),
    'Remove the worktree and its branch and close the session, after the person confirmed the listed files and commits are lost.',
  ),
  'worktree.keep': request<{ ok: true }>()(
    z.object({ sessionId: sessionIdSchema }).strict(),
    'Keep the worktree and branch as they are (the finishing actions fold away).',
  ),
  'worktree.orphans': request<{ orphans: OrphanWorktree[] }>()(
    z.object({}).strict(),
    "Worktrees under the app's folder whose session is gone, offered for clean-up.",
  ),
  'worktree.cleanup': request<{ ok: true }>()(
    z.object({ path, lose: loss }).strict(),
    'Remove an orphaned worktree and its branch, after the person confirmed what is lost.',
  ),
  'worktree.ignoreOrphan': request<{ ok: true }>()(z.object({ path }).strict(), 'Leave an orphaned worktree alone and stop offering it.'),
};
