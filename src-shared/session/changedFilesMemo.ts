import type { SessionState } from './state';
import { changedFiles, type ChangedFile, type DiskTexts } from './changedFiles';

/**
 * Whether a session has changes to review, once per state: the selector runs on every store
 * update of every session, and walking a long session's tool calls each time cost O(length).
 */
const reportedChanges = new WeakMap<SessionState, boolean>();
export function hasReportedChanges(state: SessionState | undefined): boolean {
  if (!state) return false;
  let known = reportedChanges.get(state);
  if (known === undefined) {
    known =
      Object.keys(state.files).length > 0 ||
      Object.values(state.toolIndex).some((index) => {
        const entry = state.entries[index];
        return entry?.kind === 'tool' && entry.content.some((c) => c.type === 'diff');
      });
    reportedChanges.set(state, known);
  }
  return known;
}

export const NO_DISK: DiskTexts = {};
/**
 * `changedFiles` walks every entry: remembered per state (entries, files, disk texts), so
 * showing a session's tab again does not walk a long session twice more (issue 23).
 */
const changedFilesCache = new WeakMap<SessionState['entries'], { files: SessionState['files']; disk: DiskTexts; list: ChangedFile[] }[]>();
export function changedFilesOf(entries: SessionState['entries'], files: SessionState['files'], disk: DiskTexts): ChangedFile[] {
  let known = changedFilesCache.get(entries);
  if (!known) changedFilesCache.set(entries, (known = []));
  const hit = known.find((k) => k.files === files && (k.disk === disk || sameTexts(k.disk, disk)));
  if (hit) return hit.list;
  const list = changedFiles({ entries, files }, disk);
  // The texts sent and the latest texts read from disk: two lists a state.
  known.splice(0, known.length, ...known.filter((k) => k.disk === NO_DISK).slice(0, 1), { files, disk, list });
  return list;
}

function sameTexts(a: DiskTexts, b: DiskTexts): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => key in b && a[key] === b[key]);
}
