import type { SessionState, TerminalState, TranscriptEntry } from './state';
import { hasReportedChanges } from './changedFilesMemo';
import { panelTerminalCount, terminalsShownBy, windowTerminals, withTerminals } from './windowTerminals';

/**
 * Paging a session from main (issue 23): the page gets a session's state with only its newest
 * entries, and older ranges on demand. Entries keep their absolute indices: the page's `entries`
 * is as long as main's, with holes (array slots never set) where an entry is not loaded, so
 * `toolIndex`, message and plan indexes and search jumps mean what they mean in main.
 */

/** A session's folded state whose `entries` are only `entries[from..from + state.entries.length)` of `total`. */
export interface SessionWindow {
  state: SessionState;
  /** Absolute index of `state.entries[0]`. */
  from: number;
  /** How many entries the session has (main's `entries.length`). */
  total: number;
  /** Whether any entry (loaded or not) reports a file change: the side panel offers its Review tab. */
  reportedChanges: boolean;
  /** How many terminals the session ran (its `state.terminals` holds only those the window needs: windowTerminals.ts). */
  terminalCount: number;
}

/**
 * Entries `[from, from + entries.length)` of a session, as main had them when folded to `seq`;
 * with `indices`, the entries at those indices instead (a pick, see PICKS).
 */
export interface EntryRange {
  from: number;
  entries: TranscriptEntry[];
  indices?: number[];
  /** The last event main had folded into these entries. */
  seq: number;
  total: number;
  /** The terminals these entries show (absent: none). */
  terminals?: Record<string, TerminalState>;
}

/** How many of the newest entries a page gets first (a screenful several times over). */
export const WINDOW_SIZE = 150;
/** The most entries one range request answers. */
export const MAX_RANGE = 500;

/** Main's side: the state with only the newest `size` entries. */
export function windowOf(state: SessionState, size = WINDOW_SIZE): SessionWindow {
  const total = state.entries.length;
  const from = Math.max(0, total - size);
  const entries = state.entries.slice(from);
  return {
    state: { ...state, entries, terminals: windowTerminals(state, entries) },
    from,
    total,
    reportedChanges: hasReportedChanges(state),
    terminalCount: panelTerminalCount(state),
  };
}

/** Main's side: entries `[from, to)`, clamped to the session and to MAX_RANGE. */
export function rangeOf(state: SessionState, from: number, to: number): EntryRange {
  const total = state.entries.length;
  const start = Math.min(Math.max(0, from), total);
  const end = Math.min(Math.max(start, to), total, start + MAX_RANGE);
  const entries = state.entries.slice(start, end);
  return withShownTerminals(state, { from: start, entries, seq: state.lastSeq, total });
}

/**
 * The entries a view that reads the whole session needs, wherever they are: message numbers
 * (the person's messages), usage totals (turn ends). The Review list is computed in main
 * (`session.review`), so no pick sends every tool call with a diff.
 */
export const PICKS = {
  user: (entry: TranscriptEntry) => entry.kind === 'user',
  stop: (entry: TranscriptEntry) => entry.kind === 'stop',
};
export type EntryPick = keyof typeof PICKS;

/** Main's side: every entry a pick selects, with its index. */
export function pickOf(state: SessionState, pick: EntryPick): EntryRange {
  const test = PICKS[pick];
  const entries: TranscriptEntry[] = [];
  const indices: number[] = [];
  state.entries.forEach((entry, index) => {
    if (!test(entry)) return;
    entries.push(entry);
    indices.push(index);
  });
  return withShownTerminals(state, { from: 0, entries, indices, seq: state.lastSeq, total: state.entries.length });
}

function withShownTerminals(state: SessionState, range: EntryRange): EntryRange {
  const terminals = terminalsShownBy(state, range.entries);
  return Object.keys(terminals).length > 0 ? { ...range, terminals } : range;
}

/** Main's side: where the entry with this id is (null: no such entry). */
export function indexOfEntry(state: SessionState, entryId: string): number | null {
  const index = state.entries.findIndex((entry) => entry.id === entryId);
  return index === -1 ? null : index;
}

/** The page's side: the session state, `entries` as long as main's with holes outside the window. */
export function stateFromWindow({ state, from, total }: SessionWindow): SessionState {
  // Holes are the point: slots of entries not loaded.
  const entries: TranscriptEntry[] = new Array<TranscriptEntry>(total);
  for (let i = 0; i < state.entries.length; i++) entries[from + i] = state.entries[i];
  return { ...state, entries };
}

/** Whether `index` is a slot of the session whose entry is not loaded in this copy. */
export function isHole(entries: readonly (TranscriptEntry | undefined)[], index: number): boolean {
  return index >= 0 && index < entries.length && entries[index] === undefined;
}

/** The first and last hole in `[from, to)`, or null when every entry there is loaded. */
export function holesIn(entries: readonly (TranscriptEntry | undefined)[], from: number, to: number): { from: number; to: number } | null {
  let first = -1;
  let last = -1;
  for (let i = Math.max(0, from); i < Math.min(to, entries.length); i++) {
    if (entries[i] !== undefined) continue;
    if (first === -1) first = i;
    last = i;
  }
  return first === -1 ? null : { from: first, to: last + 1 };
}

/**
 * Fills the holes of `state` with a range main folded to the same `seq` (the caller checks it):
 * loaded entries stay the same objects, so only the rows that were placeholders re-render.
 * Returns `state` itself when the range fills nothing.
 */
export function mergeRange(state: SessionState, range: EntryRange): SessionState {
  let entries: TranscriptEntry[] | null = null;
  for (let i = 0; i < range.entries.length; i++) {
    const at = range.indices ? range.indices[i] : range.from + i;
    if (!isHole(state.entries, at)) continue;
    entries ??= state.entries.slice();
    entries[at] = range.entries[i];
  }
  return withTerminals(entries ? { ...state, entries } : state, range.terminals);
}
