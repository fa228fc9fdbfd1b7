import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import { git } from './git';

/** A branch name from the agent and a short slug: `claude-code/session-3f9a`. */
export function suggestBranch(agentId: string | undefined, taken: readonly string[]): string {
  const agent =
    (agentId ?? 'agent')
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'agent';
  for (;;) {
    const name = `${agent}/session-${randomBytes(2).toString('hex')}`;
    if (!taken.includes(name)) return name;
  }
}

/** Whether git accepts the name as a branch (`git check-ref-format --branch`). */
export async function isValidBranchName(name: string, cwd: string): Promise<boolean> {
  if (name.startsWith('-')) return false;
  return (await git(['check-ref-format', '--branch', name], cwd)).code === 0;
}

/** The worktree's folder name: the repository's name and the branch, safe for any file system. */
export function worktreeFolderName(repoRoot: string, branch: string): string {
  const clean = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '');
  return `${clean(basename(repoRoot)) || 'repo'}-${clean(branch) || 'branch'}`.slice(0, 120);
}
