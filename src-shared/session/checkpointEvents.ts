/**
 * The checkpoint events (issue 24), kept apart from `events.ts` so the session event model can
 * change around them: a snapshot of the session's folders before each turn, what each turn
 * changed on disk, restores and review decisions. Folded by `reduceCheckpoints.ts`.
 */

/** One folder's snapshot: the commit in its shadow repository (null: none could be taken). */
export interface FolderSnapshot {
  /** The session folder (its workspace or an additional folder), absolute. */
  root: string;
  commit: string | null;
  /** Files left out for being over the size limit (paths relative to `root`). */
  skipped?: string[];
}

/** A file a turn (or a restore) changed, relative to its folder. */
export interface ChangedPath {
  root: string;
  path: string;
  status: 'added' | 'modified' | 'deleted';
}

export type CheckpointEventBody =
  /**
   * The session's folders were snapshotted: before a turn (`turn`), at its end (`turnEnd`), or
   * before a restore (`restore`: what "undo the restore" goes back to). `error` says why there is
   * no snapshot (git missing, the feature turned off); the turn goes on without one.
   */
  | {
      kind: 'checkpoint.taken';
      checkpointId: string;
      reason: 'turn' | 'turnEnd' | 'restore';
      turnId: string | null;
      folders: FolderSnapshot[];
      error?: string;
    }
  /** What a turn changed on disk, whoever wrote it: the snapshots before and after it, compared. */
  | { kind: 'turn.changes'; turnId: string; before: string; after: string; files: ChangedPath[] }
  /**
   * Files were restored to a checkpoint (files only: the agent's conversation is not rewound).
   * `undoCheckpointId` is the snapshot taken just before, so the restore can itself be undone.
   */
  | {
      kind: 'checkpoint.restored';
      checkpointId: string;
      undoCheckpointId: string;
      /** The turn the checkpoint was taken before (null: an undo of a restore). */
      turnId: string | null;
      /** The number shown in the transcript: "before message N". */
      label: string;
      files: ChangedPath[];
    }
  /** The person kept hunks of a file in the Review panel (they disappear from its list). */
  | { kind: 'review.kept'; scope: string; root: string; path: string; hunks: string[] }
  /** The person rejected a hunk (`hunk`) or the whole file (null): its old text was written back. */
  | { kind: 'review.rejected'; scope: string; root: string; path: string; hunk: string | null };

/** What the session knows of its checkpoints (issue 24); absent until the first one. */
export interface CheckpointsState {
  /** checkpointId → the folders' snapshots. */
  snapshots: Record<string, FolderSnapshot[]>;
  /** turnId → the checkpoint before it, the one after it, and what it changed. */
  turns: Record<string, { before?: string; after?: string; files?: ChangedPath[] }>;
  /** Turn ids in the order they started (the Review panel's list). */
  order: string[];
  /** `${scope}\0${root}\0${path}` → hunk keys the person kept. */
  kept: Record<string, string[]>;
  /** Why checkpoints are off for this session (git missing, turned off), once known. */
  unavailable?: string;
  /** Told to the agent with the next prompt, then cleared: which files were restored to which turn. */
  pendingNote?: string;
}

/** A transcript marker: files were restored to a checkpoint here. */
export interface RestoreEntry {
  kind: 'restore';
  id: string;
  checkpointId: string;
  undoCheckpointId: string;
  turnId: string | null;
  label: string;
  files: ChangedPath[];
}

export type CheckpointEventKind = CheckpointEventBody['kind'];

export const CHECKPOINT_EVENT_KINDS: readonly CheckpointEventKind[] = [
  'checkpoint.taken',
  'turn.changes',
  'checkpoint.restored',
  'review.kept',
  'review.rejected',
];

/** The scope of the whole session in the Review panel (a turn's scope is its turn id). */
export const SESSION_SCOPE = 'session';
