import type { SessionState } from '../../../src-shared/session/state';

export interface ChangedFile {
  path: string;
  /** The text before the agent's first change in this session (null: it created the file). */
  oldText: string | null;
  newText: string;
  deleted: boolean;
  /** Where the latest change came from. */
  source: 'write' | 'diff';
  changes: number;
}

/**
 * Every file the agent changed in this session: the writes it made through the client
 * (`state.files`) and the diffs in its tool calls, one row per path, from the first known
 * old text to the latest new text.
 */
export function changedFiles(state: Pick<SessionState, 'entries' | 'files'>): ChangedFile[] {
  const byPath = new Map<string, ChangedFile>();
  const note = (path: string, oldText: string | null, newText: string, deleted: boolean, source: ChangedFile['source']) => {
    const existing = byPath.get(path);
    if (existing) {
      existing.newText = newText;
      existing.deleted = deleted;
      existing.source = source;
      existing.changes++;
    } else {
      byPath.set(path, { path, oldText, newText, deleted, source, changes: 1 });
    }
  };
  for (const entry of state.entries) {
    if (entry.kind === 'tool') {
      if (entry.status === 'failed' || entry.status === 'canceled') continue;
      for (const content of entry.content) {
        if (content.type !== 'diff' || typeof content.path !== 'string') continue;
        note(content.path, typeof content.oldText === 'string' ? content.oldText : null, String(content.newText ?? ''), content.deleted === true, 'diff');
      }
    } else if (entry.kind === 'file') {
      note(entry.path, entry.oldText, entry.newText, false, 'write');
    }
  }
  for (const [path, file] of Object.entries(state.files)) {
    if (!byPath.has(path)) note(path, file.oldText, file.newText, false, 'write');
  }
  return [...byPath.values()];
}
