import { existsSync } from 'node:fs';
import type { WorktreeInfo, WorktreeMergeResult } from '../../src-shared/ipc/worktreeContract';
import { UserError } from '../errors/errors';
import { git, gitOk } from './git';
import { hasTrackedChanges, isAncestor, listWorktrees, resolveCommit, uncommittedChanges } from './gitQueries';

/**
 * Merges a session's branch into its base without ever leaving the base half-merged.
 *
 * 1. The merge is computed first with `git merge-tree --write-tree`, which touches no branch,
 *    index or working tree. Conflicts end it there: the files are listed and nothing changed.
 * 2. The result (the branch itself for a fast-forward, else a merge commit made with
 *    `commit-tree`) is then applied in one step:
 *    - base checked out in a working tree (usually the person's own checkout): only when that
 *      tree has no changes to tracked files, with `git merge --ff-only <result>` there, so its
 *      index and files follow the branch (git refuses, changing nothing, if an untracked file
 *      would be overwritten); a tree with changes is refused with a message, untouched;
 *    - base checked out nowhere: `git update-ref` with the old value, so a base that moved in
 *      the meantime is refused rather than overwritten.
 */
export async function mergeIntoBase(info: WorktreeInfo, message: string): Promise<WorktreeMergeResult> {
  const { repoRoot, branch, base } = info;
  if (existsSync(info.path)) {
    const pending = await uncommittedChanges(info.path, info.copied);
    if (pending.length) {
      throw new UserError(
        `The worktree has ${pending.length} uncommitted change${pending.length === 1 ? '' : 's'}: commit (or discard) them first, then merge.`,
      );
    }
  }
  const baseSha = await resolveCommit(repoRoot, `refs/heads/${base}`);
  if (!baseSha) throw new UserError(`The base branch "${base}" no longer exists.`);
  const branchSha = await resolveCommit(repoRoot, `refs/heads/${branch}`);
  if (!branchSha) throw new UserError(`The branch "${branch}" no longer exists.`);
  if (await isAncestor(repoRoot, branchSha, baseSha)) return { outcome: 'upToDate', conflicts: [], message: `${base} already has everything on ${branch}.` };

  const baseTree = (await listWorktrees(repoRoot)).find((tree) => tree.branch === base)?.path ?? null;
  if (baseTree && (await hasTrackedChanges(baseTree))) {
    throw new UserError(
      `${base} is checked out in ${baseTree}, which has uncommitted changes. Merging would have to change those files: commit or stash them there, then merge again. Nothing was changed.`,
    );
  }

  let result = branchSha;
  const fastForward = await isAncestor(repoRoot, baseSha, branchSha);
  if (!fastForward) {
    const computed = await git(['merge-tree', '--write-tree', '--name-only', '--no-messages', baseSha, branchSha], repoRoot);
    const lines = computed.stdout.split('\n');
    if (computed.code === 1) {
      const conflicts = [...new Set(lines.slice(1).filter(Boolean))];
      return {
        outcome: 'conflict',
        conflicts,
        message: `${branch} and ${base} both changed ${conflicts.length === 1 ? 'this file' : 'these files'}; nothing was merged and ${base} is as it was. Resolve the conflict on ${branch} (for example: merge ${base} into it in the worktree), then merge again.`,
      };
    }
    if (computed.code !== 0) throw new UserError(`git merge-tree failed: ${computed.stderr.trim()}`);
    result = (await gitOk(['commit-tree', lines[0].trim(), '-p', baseSha, '-p', branchSha, '-m', message], repoRoot)).trim();
  }

  if (baseTree) {
    const applied = await git(['merge', '--ff-only', '--no-edit', result], baseTree);
    if (applied.code !== 0)
      throw new UserError(`Merging into ${base} in ${baseTree} was refused, nothing changed: ${(applied.stderr || applied.stdout).trim()}`);
  } else {
    const updated = await git(['update-ref', '-m', `merge ${branch}`, `refs/heads/${base}`, result, baseSha], repoRoot);
    if (updated.code !== 0) throw new UserError(`${base} moved while merging; nothing changed. Try again. (${updated.stderr.trim()})`);
  }
  return fastForward
    ? { outcome: 'fastForward', conflicts: [], message: `${base} fast-forwarded to ${branch}.` }
    : { outcome: 'merged', conflicts: [], message: `Merged ${branch} into ${base} with a merge commit.` };
}
