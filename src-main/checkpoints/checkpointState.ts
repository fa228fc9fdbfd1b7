import { SESSION_SCOPE, type ChangedPath, type CheckpointsState, type FolderSnapshot } from '../../src-shared/session/checkpointEvents';
import type { SessionState } from '../../src-shared/session/state';
import { UserError } from '../errors/errors';

// Questions about a session's checkpoints, answered from its folded state (reduceCheckpoints.ts).

export function reviewScope(state: CheckpointsState, scope: string): { base: string | undefined; after: string | undefined; files: ChangedPath[] } {
  if (scope !== SESSION_SCOPE) {
    const turn = state.turns[scope];
    if (!turn) throw new UserError('There is no such turn with a checkpoint in this session.');
    return { base: turn.before, after: turn.after, files: turn.files ?? [] };
  }
  const turns = state.order.map((turnId) => state.turns[turnId]).filter(Boolean);
  const seen = new Set<string>();
  const files: ChangedPath[] = [];
  for (const turn of turns)
    for (const file of turn.files ?? []) {
      const key = `${file.root}\0${file.path}`;
      if (seen.has(key)) continue;
      seen.add(key);
      files.push(file);
    }
  return { base: turns.find((turn) => turn.before)?.before, after: [...turns].reverse().find((turn) => turn.after)?.after, files };
}

export function commitOf(state: CheckpointsState, checkpointId: string | undefined, root: string): string | null {
  if (!checkpointId) return null;
  return state.snapshots[checkpointId]?.find((folder) => folder.root === root)?.commit ?? null;
}

export function lastSnapshot(state: CheckpointsState): FolderSnapshot[] | undefined {
  const ids = Object.keys(state.snapshots);
  return ids.length ? state.snapshots[ids[ids.length - 1]] : undefined;
}

/** The checkpoint after the last turn that has one: how the agent left the files. */
export function lastAfter(state: CheckpointsState): string | undefined {
  for (let i = state.order.length - 1; i >= 0; i--) {
    const after = state.turns[state.order[i]]?.after;
    if (after) return after;
  }
  return undefined;
}

export function turnOf(state: CheckpointsState, checkpointId: string): string | null {
  for (const turnId of state.order) if (state.turns[turnId]?.before === checkpointId) return turnId;
  return null;
}

/** "2" for the checkpoint before the second message; a restore's undo is named for the restore it undoes. */
export function labelOf(state: SessionState, checkpointId: string): string {
  const turnId = state.checkpoints ? turnOf(state.checkpoints, checkpointId) : null;
  if (turnId) {
    const users = state.entries.filter((entry) => entry.kind === 'user');
    const index = users.findIndex((entry) => entry.kind === 'user' && entry.turnId === turnId);
    if (index >= 0) return String(index + 1);
  }
  const restore = state.entries.find((entry) => entry.kind === 'restore' && entry.undoCheckpointId === checkpointId);
  return restore?.kind === 'restore' ? restore.label : '?';
}
