import type { CheckpointEventBody, CheckpointsState } from './checkpointEvents';
import { CHECKPOINT_EVENT_KINDS } from './checkpointEvents';
import type { SessionEvent } from './events';
import type { SessionState } from './state';

type CheckpointEvent = Extract<SessionEvent, CheckpointEventBody>;

const KINDS = new Set<string>(CHECKPOINT_EVENT_KINDS);

export function isCheckpointEvent(event: SessionEvent): event is CheckpointEvent {
  return KINDS.has(event.kind);
}

/** The key under which kept hunks of one file are folded. */
export function keptKey(scope: string, root: string, path: string): string {
  return `${scope}\0${root}\0${path}`;
}

function empty(): CheckpointsState {
  return { snapshots: {}, turns: {}, order: [], kept: {} };
}

/**
 * Folds one checkpoint event into a draft state the caller already copied (the transcript
 * entries for restores are pushed here too, as notices the transcript renders as markers).
 */
export function applyCheckpointEvent(state: SessionState, event: CheckpointEvent): void {
  const current = state.checkpoints ?? empty();
  const next: CheckpointsState = { ...current };
  switch (event.kind) {
    case 'checkpoint.taken': {
      next.pendingNote = event.reason === 'turn' ? undefined : current.pendingNote;
      if (event.error) next.unavailable = event.error;
      if (event.folders.some((folder) => folder.commit)) {
        next.snapshots = { ...current.snapshots, [event.checkpointId]: event.folders };
        if (event.turnId && event.reason !== 'restore') {
          const turn = current.turns[event.turnId] ?? {};
          next.turns = {
            ...current.turns,
            [event.turnId]: event.reason === 'turn' ? { ...turn, before: event.checkpointId } : { ...turn, after: event.checkpointId },
          };
          if (!current.order.includes(event.turnId)) next.order = [...current.order, event.turnId];
        }
      }
      break;
    }
    case 'turn.changes': {
      const turn = current.turns[event.turnId] ?? {};
      next.turns = { ...current.turns, [event.turnId]: { ...turn, before: event.before, after: event.after, files: event.files } };
      if (!current.order.includes(event.turnId)) next.order = [...current.order, event.turnId];
      break;
    }
    case 'checkpoint.restored': {
      const names = event.files.map((file) => file.path);
      const shown = names.length > 20 ? `${names.slice(0, 20).join(', ')} and ${names.length - 20} more` : names.join(', ');
      next.pendingNote = names.length
        ? `[The person restored these files to how they were ${event.turnId ? `before message ${event.label}` : `before the restore of message ${event.label}`} (your earlier changes to them are undone; the conversation was not rewound): ${shown}]`
        : current.pendingNote;
      state.entries.push({
        kind: 'restore',
        id: `${state.sessionId}:${event.seq}`,
        checkpointId: event.checkpointId,
        undoCheckpointId: event.undoCheckpointId,
        turnId: event.turnId,
        label: event.label,
        files: event.files,
      });
      break;
    }
    case 'review.kept': {
      const key = keptKey(event.scope, event.root, event.path);
      next.kept = { ...current.kept, [key]: [...new Set([...(current.kept[key] ?? []), ...event.hunks])] };
      break;
    }
    case 'review.rejected':
      // The file on disk changed; the panel reads it again. Nothing to keep in the state.
      break;
  }
  state.checkpoints = next;
}
