import type { SessionState } from './state';
import { changedFiles, type ChangedFile, type DiskTexts } from './changedFiles';

/**
 * Whether a session has changes to review (a file written, or a tool call with a diff), once per
 * state: the selector runs on every store update of every session, and walking a long session's
 * tool calls each time cost O(length).
 */
const reportedChanges = new WeakMap<SessionState, boolean>();
export function hasReportedChanges(state: SessionState | undefined): boolean {
  if (!state) return false;
  let known = reportedChanges.get(state);
  if (known === undefined) {
    known =
      Object.keys(state.files).length > 0 ||
      toolEntries(state.toolIndex).some((index) => {
        const entry = state.entries[index];
        return entry?.kind === 'tool' && entry.content.some((c) => c.type === 'diff');
      });
    reportedChanges.set(state, known);
  }
  return known;
}

/**
 * The entry index of each tool call, listed once per index object: a batch that adds no tool call
 * shares its index (reducer.ts), and listing the values of an index of 12,500 tool calls cost
 * 3 ms for each state a stream made in a session of 50,000 entries (issue 23).
 */
const listedToolEntries = new WeakMap<SessionState['toolIndex'], number[]>();
function toolEntries(toolIndex: SessionState['toolIndex']): number[] {
  let list = listedToolEntries.get(toolIndex);
  if (!list) listedToolEntries.set(toolIndex, (list = Object.values(toolIndex)));
  return list;
}

export const NO_DISK: DiskTexts = {};

/**
 * What the changed files are computed from: the tool calls with diffs and the files written, in
 * order. A streamed chunk, a new message or a plan gives a session a new entry list but leaves
 * these the same objects (the reducer copies only the entries an event touches), so the Review
 * list of a long session is not walked again for every batch of a stream (issue 23: 50–150 ms of
 * main's thread a request at 50,000 entries, asked up to twice a second while the panel shows).
 */
function isSource(entry: SessionState['entries'][number] | undefined): boolean {
  return entry?.kind === 'file' || (entry?.kind === 'tool' && entry.content.some((c) => c.type === 'diff'));
}

const keyOfEntries = new WeakMap<SessionState['entries'], object>();
const recentSources: { sources: SessionState['entries']; key: object }[] = [];
const RECENT_SOURCES = 8;

/** One object for every entry list with the same sources (identity, in order): a cache key. */
export function sourcesKey(entries: SessionState['entries']): object {
  let key = keyOfEntries.get(entries);
  if (key) return key;
  const sources = entries.filter(isSource);
  const same = recentSources.find((r) => r.sources.length === sources.length && r.sources.every((entry, i) => entry === sources[i]));
  key = same?.key ?? {};
  if (!same) {
    recentSources.unshift({ sources, key });
    recentSources.length = Math.min(recentSources.length, RECENT_SOURCES);
  }
  keyOfEntries.set(entries, key);
  return key;
}

/**
 * `changedFiles` walks every entry: remembered per sources (entries' diffs, files, disk texts),
 * so showing a session's tab again or a stream's next batch does not walk a long session again.
 */
const changedFilesCache = new WeakMap<object, { files: SessionState['files']; disk: DiskTexts; list: ChangedFile[] }[]>();
export function changedFilesOf(entries: SessionState['entries'], files: SessionState['files'], disk: DiskTexts): ChangedFile[] {
  const sources = sourcesKey(entries);
  let known = changedFilesCache.get(sources);
  if (!known) changedFilesCache.set(sources, (known = []));
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
