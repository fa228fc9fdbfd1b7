import { z } from 'zod';
import type { ChangedPath } from '../session/checkpointEvents';
import { request } from './define';
import { sessionIdSchema } from './ids';

/**
 * Checkpoints (issue 24): the Review panel's diffs of what turns changed on disk, keeping and
 * rejecting hunks, and restoring the files to before a message. Spread into `contract.ts`.
 * Restores are files-only: ACP has no method to rewind an agent's conversation (the rewind RFDs
 * are not accepted), so none is sent.
 */
const id = z.string().min(1).max(200);
const path = z.string().min(1).max(4096);
/** `session` (the whole session) or a turn id. */
const scope = id;

/** One changed file as the Review panel shows it: the text before (the checkpoint) and now (the disk). */
export interface ReviewFile extends ChangedPath {
  /** The text in the checkpoint (null: the file was not there). */
  oldText: string | null;
  /** The text on disk now (null: the file is gone). */
  newText: string | null;
  /** Not text (a NUL byte) or too large to show: kept or rejected whole. */
  binary: boolean;
  tooLarge: boolean;
  /** What the disk held when this was read: a reject must still find it so. */
  diskHash: string;
  /** The file on disk is no longer as the turn (or the last turn) left it: someone edited it since. */
  editedSince: boolean;
}

export interface RestorePreviewFile extends ChangedPath {
  /** What restoring does to it: put the old text back, delete a file the checkpoint did not have, or bring a deleted one back. */
  action: 'restore' | 'delete' | 'recreate';
  /** Changed since the last turn ended: by the person (or another program), not by the agent. */
  editedByYou: boolean;
}

export interface RestorePreview {
  checkpointId: string;
  /** "2": the message the checkpoint was taken before. */
  label: string;
  files: RestorePreviewFile[];
  /** Files left as they are, each with why (over the size limit, ignored by .gitignore now). */
  skipped: string[];
}

export const checkpointRequests = {
  'checkpoint.review': request<{ files: ReviewFile[]; unavailable: string | null }>()(
    z.object({ sessionId: sessionIdSchema, scope }).strict(),
    'The files a turn (or the whole session) changed on disk: the checkpoint text and the disk text of each.',
  ),
  'checkpoint.keep': request<{ ok: true }>()(
    z.object({ sessionId: sessionIdSchema, scope, root: path, path, hunks: z.array(id).min(1).max(10_000) }).strict(),
    'Keep hunks of a changed file (they leave the Review list; the file is not touched).',
  ),
  'checkpoint.reject': request<{ ok: true }>()(
    z.object({ sessionId: sessionIdSchema, scope, root: path, path, hunk: id.nullable(), diskHash: id }).strict(),
    'Write back the old text of one hunk (or of the whole file, hunk null), atomically; refused when the file changed on disk since it was shown.',
  ),
  'checkpoint.preview': request<RestorePreview>()(
    z.object({ sessionId: sessionIdSchema, checkpointId: id }).strict(),
    'What restoring the files to a checkpoint would change, and which of those the person edited since the last turn.',
  ),
  'checkpoint.restore': request<{ restored: number; undoCheckpointId: string }>()(
    z.object({ sessionId: sessionIdSchema, checkpointId: id }).strict(),
    "Restore the session's files to a checkpoint (files only: the conversation stays); a checkpoint is taken first so it can be undone.",
  ),
};
