import type { ChangesDiff } from './content';
import { findFilePatch, parseGitPatch } from '../diff/gitPatch';
import type { SessionState } from './state';

export interface ChangedFile {
  path: string;
  /** The text before the agent's first change in this session (null: it created the file). */
  oldText: string | null;
  newText: string;
  deleted: boolean;
  /** Where the latest change came from. */
  source: 'write' | 'diff';
  /** Changes to this file, each counted once (a tool's diff of the app's own write is the same change). */
  changes: number;
  /**
   * True while the texts are not known to be whole files (an agent sent only snippet diffs, and
   * the file on disk has not been read yet): the Review panel reads the file to settle it.
   */
  needsDisk: boolean;
}

/** What the Review panel read from disk: the text, or null when the file does not exist. */
export type DiskTexts = Record<string, string | null | undefined>;

interface Change {
  source: 'write' | 'diff';
  oldText: string | null;
  newText: string;
  deleted: boolean;
}

/**
 * Every file the agent changed in this session, one row per path, from the text before its
 * first change to the text now. Agents differ in what their diffs hold: Claude and
 * Gemini send whole files, Copilot CLI and OpenCode send snippets (`"hello"` → `"HELLO"`),
 * Qwen sends `""` as the old text of a new file and also writes through the client, so one
 * change arrives twice. Here a snippet is a hunk applied to the known text, an empty old text
 * of a first change is a new file, a diff that repeats a client write is not counted again, and
 * when the whole text is not known the file on disk (`disk`) is the truth: the panel must
 * agree with it.
 */
export function changedFiles(state: Pick<SessionState, 'entries' | 'files'>, disk: DiskTexts = {}): ChangedFile[] {
  const byPath = new Map<string, Change[]>();
  const add = (path: string, change: Change) => {
    let list = byPath.get(path);
    if (!list) byPath.set(path, (list = []));
    list.push(change);
  };
  for (const entry of state.entries) {
    if (entry === undefined) continue; // not loaded (paging): the Review panel loads them all
    if (entry.kind === 'tool') {
      if (entry.status === 'failed' || entry.status === 'canceled') continue;
      for (const content of entry.content) {
        if (content.type !== 'diff') continue;
        if ('changes' in content) {
          for (const [path, change] of patchChanges(content)) add(path, change);
          continue;
        }
        add(content.path, { source: 'diff', oldText: content.oldText, newText: content.newText, deleted: content.deleted === true });
      }
    } else if (entry.kind === 'file') {
      // A write that changed nothing is no change: OpenCode writes a file itself, then again through the client.
      if (entry.oldText !== entry.newText) add(entry.path, { source: 'write', oldText: entry.oldText, newText: entry.newText, deleted: false });
    }
  }
  for (const [path, file] of Object.entries(state.files)) {
    if (!byPath.has(path) && file.oldText !== file.newText) add(path, { source: 'write', oldText: file.oldText, newText: file.newText, deleted: false });
  }
  return [...byPath.entries()].map(([path, changes]) => fold(path, changes, disk[path]));
}

const TEXT_OPERATIONS = new Set(['add', 'delete', 'modify', 'move', 'copy']);

/**
 * An ACP v2 diff: a list of file changes and a git patch. Each change the patch has hunks for,
 * with the texts its hunks show (a snippet when the hunks do not cover the whole file); a
 * deletion even without hunks (`changes` is what says which paths were affected).
 */
function patchChanges({ changes, patch }: ChangesDiff): [string, Change][] {
  const files = patch?.format === 'git_patch' ? parseGitPatch(patch.text) : [];
  const out: [string, Change][] = [];
  for (const { operation, path, oldPath } of changes) {
    if (!path || !TEXT_OPERATIONS.has(operation)) continue;
    const file = findFilePatch(files, path, oldPath ?? null);
    if (!file || file.hunks === 0) {
      // What the file held is not in the diff; that it is gone is.
      if (operation === 'delete') out.push([path, { source: 'diff', oldText: null, newText: '', deleted: true }]);
      continue;
    }
    out.push([
      path,
      { source: 'diff', oldText: operation === 'add' ? null : (file.oldText ?? ''), newText: file.newText ?? '', deleted: operation === 'delete' },
    ]);
  }
  return out;
}

function fold(path: string, all: Change[], onDisk: string | null | undefined): ChangedFile {
  // A tool's diff that ends where one of the app's own writes ends is that write, seen again.
  const writes = all.filter((change) => change.source === 'write');
  const changes = all.filter((change) => change.source === 'write' || !writes.some((write) => write.newText === change.newText));
  let base: string | null | undefined;
  let current: string | undefined;
  /** Snippet hunks seen while the whole text was unknown, to undo from the disk text. */
  const pending: { oldText: string; newText: string }[] = [];
  let deleted = false;
  changes.forEach((change, index) => {
    deleted = change.deleted;
    if (change.source === 'write') {
      if (base === undefined) base = change.oldText;
      current = change.newText;
      return;
    }
    // ACP: no old text is a new file; Qwen sends "" for that, and a first change cannot have edited "".
    const oldText = change.oldText === '' && index === 0 ? null : change.oldText;
    if (change.deleted) {
      // A deletion carries the whole file it removed.
      if (base === undefined) base = oldText;
      current = '';
    } else if (oldText === null) {
      if (base === undefined) base = null;
      current = change.newText;
    } else if (current !== undefined && current === oldText) {
      current = change.newText;
    } else if (current !== undefined && current.includes(oldText)) {
      current = current.replace(oldText, change.newText); // a snippet: one hunk of the file
    } else {
      // Whole file or snippet? Unknown until the file is read.
      if (current === undefined && base === undefined) pending.push({ oldText, newText: change.newText });
      current = undefined;
    }
  });
  const last = changes.at(-1) ?? all.at(-1)!;
  let needsDisk = current === undefined;
  // The disk settles only what the diffs leave in doubt; a file missing on disk that no diff
  // deleted (moved away, another checkout) keeps the diffs as they were sent.
  if (needsDisk && onDisk !== undefined && (onDisk !== null || deleted)) {
    // The file on disk is the truth for "now"; the base is it with the unsure hunks undone.
    if (current === undefined && base === undefined && onDisk !== null) {
      let before = onDisk;
      for (const hunk of [...pending].reverse()) before = before.includes(hunk.newText) ? before.replace(hunk.newText, hunk.oldText) : hunk.oldText;
      base = before;
    }
    current = onDisk ?? '';
    deleted = onDisk === null && (deleted || base !== null);
    needsDisk = false;
  }
  if (current === undefined) {
    // Not read yet: the last diff as it came, marked for reading.
    current = last.newText;
    if (base === undefined) base = last.oldText;
  }
  return { path, oldText: base === undefined ? null : base, newText: current, deleted, source: last.source, changes: changes.length, needsDisk };
}
