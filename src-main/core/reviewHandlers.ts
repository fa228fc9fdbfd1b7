import type { Handlers } from '../../src-shared/ipc/contract';
import type { DiskTexts } from '../../src-shared/session/changedFiles';
import { pathsNeedingDisk, reviewFileOf, reviewListOf } from '../../src-shared/session/review';
import type { SessionState } from '../../src-shared/session/state';
import { readWorkspaceFile } from '../fs/readWorkspaceFile';

export interface ReviewDeps {
  /** An open session's folded state (`SessionManager.current`). */
  current(sessionId: string): SessionState;
  /** The folders the session may read (its workspace roots). */
  roots(sessionId: string): string[];
}

/**
 * The Review panel's list, computed from the state main holds (issue 23): the page gets one row
 * per changed file instead of every tool call with a diff, and a file's texts when it is opened.
 * Snippet diffs are settled by the file on disk, read here (as the page did before).
 */
export function reviewHandlers(deps: ReviewDeps): Pick<Handlers, 'session.review' | 'session.reviewFile'> {
  const diskTexts = (sessionId: string, state: SessionState, only?: string): DiskTexts => {
    const roots = deps.roots(sessionId);
    const disk: DiskTexts = {};
    for (const path of pathsNeedingDisk(state)) if (only === undefined || path === only) disk[path] = readDisk(path, roots);
    return disk;
  };
  return {
    'session.review': async ({ sessionId }) => {
      const state = deps.current(sessionId);
      return reviewListOf(state, diskTexts(sessionId, state));
    },
    'session.reviewFile': async ({ sessionId, path }) => {
      const state = deps.current(sessionId);
      return reviewFileOf(state, path, diskTexts(sessionId, state, path));
    },
  };
}

/** The text on disk; null when the file is gone; undefined when it cannot be read whole (the diffs as sent stay). */
function readDisk(path: string, roots: string[]): string | null | undefined {
  try {
    const read = readWorkspaceFile(path, roots);
    return read.truncated ? undefined : read.text;
  } catch (error) {
    return /ENOENT|no such file/i.test((error as Error).message) ? null : undefined;
  }
}
