import { bridge } from '../../bridge';
import { run } from '../../store';

/** Worktree sessions' requests (docs/WORKTREES.md); failures are shown as the app's toast. */
export const newWorktreeSession = (agentId: string, cwd: string, branch: string, base: string) =>
  run(bridge.request('worktree.newSession', { agentId, cwd, branch, base }));
export const worktreeStatus = (sessionId: string) => run(bridge.request('worktree.status', { sessionId }));
export const commitWorktree = (sessionId: string, message: string) => run(bridge.request('worktree.commit', { sessionId, message }));
export const mergeWorktree = (sessionId: string) => run(bridge.request('worktree.merge', { sessionId }));
export const openWorktree = (sessionId: string) => run(bridge.request('worktree.open', { sessionId }));
export const discardWorktree = (sessionId: string, lose: { files: string[]; commits: string[] }) =>
  run(bridge.request('worktree.discard', { sessionId, lose }));
export const keepWorktree = (sessionId: string) => run(bridge.request('worktree.keep', { sessionId }));
export const listOrphans = () => run(bridge.request('worktree.orphans', {}));
export const cleanupOrphan = (path: string, lose: { files: string[]; commits: string[] }) => run(bridge.request('worktree.cleanup', { path, lose }));
export const ignoreOrphan = (path: string) => run(bridge.request('worktree.ignoreOrphan', { path }));
