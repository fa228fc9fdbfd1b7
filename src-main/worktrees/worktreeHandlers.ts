import { resolve } from 'node:path';
import type { Handlers } from '../../src-shared/ipc/contract';
import type { worktreeRequests } from '../../src-shared/ipc/worktreeContract';
import { UserError } from '../errors/errors';
import type { WorktreeService } from './worktreeService';

/** The worktree rows of the handler table. `openPath` is the desktop app's `shell.openPath`; the browser host has none. */
export function worktreeHandlers(
  worktrees: WorktreeService,
  deps: { sessionTitle: (sessionId: string) => string | null; openPath?: (path: string) => Promise<string> },
): Pick<Handlers, keyof typeof worktreeRequests> {
  return {
    'worktree.probe': async ({ cwd, agentId }) => worktrees.engine.probe(resolve(cwd), agentId),
    'worktree.newSession': async ({ agentId, cwd, branch, base }) => ({ sessionId: await worktrees.newSession(agentId, resolve(cwd), branch, base) }),
    'worktree.status': async ({ sessionId }) => worktrees.engine.status(worktrees.require(sessionId)),
    'worktree.commit': async ({ sessionId, message }) => ({ sha: await worktrees.engine.commit(worktrees.require(sessionId), message) }),
    'worktree.merge': async ({ sessionId }) => worktrees.merge(sessionId, deps.sessionTitle(sessionId)),
    'worktree.open': async ({ sessionId }) => {
      const { path } = worktrees.require(sessionId);
      if (!deps.openPath) return { path, opened: false };
      // shell.openPath answers an error message, or '' when it opened the folder.
      const failure = await deps.openPath(path);
      if (failure) throw new UserError(`Cannot open ${path}: ${failure}`);
      return { path, opened: true };
    },
    'worktree.discard': async ({ sessionId, lose }) => {
      await worktrees.discard(sessionId, lose);
      return { ok: true };
    },
    'worktree.keep': async ({ sessionId }) => {
      worktrees.keep(sessionId);
      return { ok: true };
    },
    'worktree.orphans': async () => ({ orphans: await worktrees.orphans() }),
    'worktree.cleanup': async ({ path, lose }) => {
      await worktrees.cleanup(path, lose);
      return { ok: true };
    },
    'worktree.ignoreOrphan': async ({ path }) => {
      worktrees.ignoreOrphan(path);
      return { ok: true };
    },
  };
}
