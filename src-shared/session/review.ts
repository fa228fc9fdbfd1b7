import type { ChangedFile, DiskTexts } from './changedFiles';
import { changedFilesOf, NO_DISK, sourcesKey } from './changedFilesMemo';
import type { SessionState } from './state';

/**
 * The Review list computed in main (issue 23): one row per changed file, without its texts, so
 * the page does not load every tool call with a diff of a long session to show the list; the
 * texts of the file the person opens come on their own (`session.reviewFile`).
 */
export interface ReviewFile {
  path: string;
  /** Created by the agent in this session (no text before its first change). */
  created: boolean;
  deleted: boolean;
  /** Changes to this file, each counted once (`ChangedFile.changes`). */
  changes: number;
  source: ChangedFile['source'];
  /** The newest tool calls whose diffs touch this file (at most MAX_TOOL_CALLS), oldest first: the list's size does not grow with the session. */
  toolCallIds: string[];
}

export interface ReviewList {
  /** The last event main had folded into the list. */
  seq: number;
  files: ReviewFile[];
}

/** One file's texts as the Review panel shows them (null: the session changed no such file). */
export interface ReviewFileTexts {
  seq: number;
  file: ChangedFile | null;
}

/** The paths whose diffs `changedFiles` could not settle without the file on disk. */
export function pathsNeedingDisk(state: Pick<SessionState, 'entries' | 'files'>): string[] {
  return changedFilesOf(state.entries, state.files, NO_DISK)
    .filter((file) => file.needsDisk)
    .map((file) => file.path);
}

/** Main's side: the Review list of a session, settled by the disk texts read for `pathsNeedingDisk`. */
export function reviewListOf(state: SessionState, disk: DiskTexts): ReviewList {
  const calls = toolCallsByPath(state);
  const files = changedFilesOf(state.entries, state.files, disk).map((file): ReviewFile => ({
    path: file.path,
    created: file.oldText === null,
    deleted: file.deleted,
    changes: file.changes,
    source: file.source,
    toolCallIds: (calls.get(file.path) ?? []).slice(-MAX_TOOL_CALLS),
  }));
  return { seq: state.lastSeq, files };
}

/** Main's side: the texts of one file of the Review list. */
export function reviewFileOf(state: SessionState, path: string, disk: DiskTexts): ReviewFileTexts {
  const file = changedFilesOf(state.entries, state.files, disk).find((f) => f.path === path) ?? null;
  return { seq: state.lastSeq, file };
}

/** The most tool call ids a row names. */
export const MAX_TOOL_CALLS = 20;

const toolCallsCache = new WeakMap<object, Map<string, string[]>>();

/** Remembered per sources (`sourcesKey`): a stream's batches do not change which tool calls touched a file. */
function toolCallsByPath(state: SessionState): Map<string, string[]> {
  const key = sourcesKey(state.entries);
  let known = toolCallsCache.get(key);
  if (!known) toolCallsCache.set(key, (known = walkToolCalls(state)));
  return known;
}

function walkToolCalls(state: SessionState): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const entry of state.entries) {
    if (entry?.kind !== 'tool' || entry.status === 'failed' || entry.status === 'canceled') continue;
    for (const content of entry.content) {
      if (content.type !== 'diff') continue;
      const paths = 'changes' in content ? content.changes.map((change) => change.path) : [content.path];
      for (const path of paths) {
        if (!path) continue;
        let list = out.get(path);
        if (!list) out.set(path, (list = []));
        if (list.at(-1) === entry.toolCallId) continue;
        list.push(entry.toolCallId);
        if (list.length > MAX_TOOL_CALLS * 2) list.splice(0, list.length - MAX_TOOL_CALLS);
      }
    }
  }
  return out;
}
