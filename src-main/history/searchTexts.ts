import { entryText, SEARCHABLE_KINDS } from '../../src-shared/history/entryText';
import type { SessionState, TranscriptEntry } from '../../src-shared/session/state';

/**
 * How much of one entry is indexed: a pasted 20 MB log would be 10,000 documents, seconds of
 * indexing and 20 MB more to save and load at every start, for words a person finds in its head.
 * (Here, not in searchIndex.ts: the host cuts texts before sending them and never loads MiniSearch.)
 */
export const MAX_INDEXED_CHARS = 200_000;

/**
 * One session's change as plain texts (what the search worker receives): the entries to
 * (re)index, and for a full scan every entry id the session still has (the others are dropped).
 */
export interface IndexTexts {
  sessionId: string;
  logSize: number;
  /** How many entries the host has scanned (kept in the manifest as before). */
  scanned: number;
  full: boolean;
  /** Ids, kinds and texts (`entryText`, '' for kinds not searched), in transcript order. */
  ids: string[];
  kinds: string[];
  texts: string[];
  /** Full scans only: every entry id still in the session. */
  present: string[] | null;
}

/**
 * What the search worker needs of a session's state: the texts of the entries it has not seen.
 * The reducer replaces an entry's object when the entry changes, so an entry object in `sent`
 * was sent as it is; the entries of a running turn wait for the turn to end (a streaming reply
 * is not re-sent per chunk). A full change sends every entry and the ids the session still has.
 */
export function changeTexts(state: SessionState, logSize: number, full: boolean, sent: WeakSet<TranscriptEntry>): IndexTexts {
  const entries = state.entries;
  const until = settledEnd(state);
  const change: IndexTexts = { sessionId: state.sessionId, logSize, scanned: until, full, ids: [], kinds: [], texts: [], present: null };
  for (let i = 0; i < until; i++) {
    const entry = entries[i];
    if (!full && sent.has(entry)) continue;
    sent.add(entry);
    const text = SEARCHABLE_KINDS.has(entry.kind) ? entryText(entry) : '';
    change.ids.push(entry.id);
    change.kinds.push(entry.kind);
    // A pasted 20 MB log is indexed only up to the limit: the rest is not worth copying to the worker.
    change.texts.push(text.length > MAX_INDEXED_CHARS ? text.slice(0, MAX_INDEXED_CHARS) : text);
  }
  if (full) change.present = entries.map((entry) => entry.id);
  return change;
}

/** A change on the wire: its texts in one UTF-8 buffer (transferred, not copied) and their lengths. */
export type PackedTexts = Omit<IndexTexts, 'texts'> & { packed: Uint8Array<ArrayBuffer>; lengths: Uint32Array<ArrayBuffer> };

export function packTexts({ texts, ...rest }: IndexTexts): PackedTexts {
  const lengths = Uint32Array.from(texts, (text) => text.length);
  return { ...rest, packed: new TextEncoder().encode(texts.join('')), lengths };
}

/** The texts back; lengths count UTF-16 units, which decoding keeps (a lone surrogate becomes one U+FFFD). */
export function unpackTexts({ packed, lengths, ...rest }: PackedTexts): IndexTexts {
  const all = new TextDecoder().decode(packed);
  const texts: string[] = [];
  let at = 0;
  for (const length of lengths) {
    texts.push(all.slice(at, at + length));
    at += length;
  }
  return { ...rest, texts };
}

/** Where the entries that can still change end: a running turn's entries change with every chunk and wait for the turn to end. */
export function settledEnd(state: SessionState): number {
  const entries = state.entries;
  if (!state.currentTurnId) return entries.length;
  let start = entries.length - 1;
  while (start >= 0 && entries[start].kind !== 'user') start--;
  return start === -1 ? entries.length : start + 1;
}
