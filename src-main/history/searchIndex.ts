// Over 400 lines on purpose: one class owns the MiniSearch indexes, their per-session documents, saving
// and loading them, so "the index reflects the logs" is checked in one file.
import MiniSearch, { type Options } from 'minisearch';
import { createReadStream, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { entryText, SEARCHABLE_KINDS } from '../../src-shared/history/entryText';
import type { SessionState, TranscriptEntry } from '../../src-shared/session/state';
import { writeFileAtomic } from '../store/jsonFile';
import { logWarn } from '../log/mainLog';
import { queryTerms, topQuery } from './topQuery';
import { loadSessionLines, sessionLines, Slicer, type EntrySigs } from './searchFile';
import { DocTexts } from './docTexts';
import { CompactPostings, compactIndex } from './compactPostings';
import { FilePostings, PostingsFile, spillIndex } from './filePostings';
import { compactTree } from './treeNodes';
import { compactDocs, DocEntries, EntryTable, nextDocId } from './compactDocs';
import { MAX_INDEXED_CHARS, settledEnd, type IndexTexts } from './searchTexts';

export { MAX_INDEXED_CHARS };

/** One indexed document: a piece (≤ CHUNK characters) of one transcript entry; its id is its short id (`nextDocId`). */
interface Doc {
  id: number;
  text: string;
}

interface SessionDocs {
  /** Size of the log the documents reflect; a different size on disk means "re-index". */
  logSize: number;
  /** How many entries the last scan saw (live updates rescan only the current turn onward). */
  scanned: number;
  /** entryId → signature of the indexed text and how many chunk documents it has. */
  entries: EntrySigs;
}

/** The manifest (`search-index.json`): which sessions have a saved index, and the log size it reflects. */
interface SearchFileHead {
  version: number;
  sessions: Record<string, { logSize: number; scanned: number }>;
}

/** First line of a session's file (`search/<id>.json`); its entries and index follow, in short lines (searchFile.ts). */
interface SessionFileHead {
  version: number;
  sessionId: string;
  logSize: number;
}

/** One session's documents and its own MiniSearch (saved and loaded on its own). */
interface SessionIndex {
  docs: SessionDocs;
  mini: MiniSearch<Doc>;
  /** Each document's text by short id, for snippets (compressed; no stored-fields object per document). */
  texts: DocTexts;
  /** Each document's entry id, by short id (the entry's chunks are its `first` … `first + chunks - 1`). */
  docEntries: DocEntries;
  /** Documents added since the postings were last made compact (`compactIndex`). */
  added: number;
  /** Where its postings are kept once loaded, saved or vacuumed (`filePostings.ts`); null until then. */
  postings: PostingsFile | null;
}

type Change = { state: SessionState; logSize: number; full: boolean } | { texts: IndexTexts } | 'remove';

export interface RawHit {
  sessionId: string;
  entryId: string;
  kind: string;
  snippet: string;
  score: number;
}

// 6: documents' texts, entries' kinds and first documents in the session file instead of
// MiniSearch's stored fields; a document's id is its short id.
const VERSION = 6;
/** The log size of a session's index that holds only part of it (no log has this size). */
const PARTIAL = -1;
/** A vacuum is worth it past this many discarded documents (and a tenth of the index). */
const VACUUM_DIRT = 500;
/** Long messages are split so a match's snippet is cheap to find and documents stay small. */
const CHUNK = 2000;
/** Postings MiniSearch adds as `Map`s are made compact once this many documents were added to a session. */
const COMPACT_AFTER = 1000;

const OPTIONS: Options<Doc> = {
  idField: 'id',
  // MiniSearch's auto-vacuum pauses between batches, and a term added during the pause breaks
  // its tree walk (7.2: "Cannot read properties of undefined (reading 'keys')", an unhandled
  // rejection that took the host down). We vacuum ourselves, with no change in between.
  autoVacuum: false,
  fields: ['text'],
  // Nothing stored: the texts are in `SessionIndex.texts`, an entry's kind in its signature's row.
  storeFields: [],
  searchOptions: {
    prefix: true,
    fuzzy: (term) => fuzzyRatio(term),
    combineWith: 'AND',
  },
};

function fuzzyRatio(term: string): number | false {
  return term.length > 5 ? 0.15 : false;
}

/** FNV-1a over the text plus its length: enough to see that an entry's text changed. */
function signature(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return `${text.length}:${(hash >>> 0).toString(36)}`;
}

/** Splits text into pieces of at most CHUNK characters, at whitespace where possible. */
export function chunkText(text: string): string[] {
  if (text.length <= CHUNK) return [text];
  const chunks: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + CHUNK);
    if (end < text.length) {
      // Only the chunk's second half is searched: `lastIndexOf` would walk back to the start of
      // the text when a long one has no newline (minutes for a 20 MB prompt).
      let cut = end;
      while (cut > start + CHUNK / 2 && text[cut] !== ' ' && text[cut] !== '\n') cut--;
      if (cut > start + CHUNK / 2) end = cut + 1;
    }
    chunks.push(text.slice(start, end));
    start = end;
  }
  return chunks;
}

/** Text around the first query term found in `text`, on one line. */
export function snippet(text: string, terms: string[], width = 80): string {
  const lower = text.toLowerCase();
  let at = -1;
  let length = 0;
  for (const term of terms) {
    const index = lower.indexOf(term.toLowerCase());
    if (index !== -1 && (at === -1 || index < at)) {
      at = index;
      length = term.length;
    }
  }
  if (at === -1) at = 0;
  const start = Math.max(0, at - width);
  const end = Math.min(text.length, at + length + width);
  return `${start > 0 ? '…' : ''}${text.slice(start, end).replace(/\s+/g, ' ').trim()}${end < text.length ? '…' : ''}`;
}

/** A snippet from a later chunk of a long entry starts mid-text: say so. */
function continued(chunk: number, text: string): string {
  return chunk > 0 && !text.startsWith('…') ? `…${text}` : text;
}

/**
 * Full-text search over every session's transcript entries: MiniSearch (pure JS, no native
 * module), one index per session, each saved in its own file (`sessions/search/<id>.json`) with
 * a manifest (`sessions/search-index.json`) of the log size each reflects. A save rewrites only
 * the sessions that changed, so a long history costs nothing to keep saved, and a start with
 * nothing changed re-indexes nothing (`indexedDocuments` counts what was). A missing, corrupt or
 * stale index is rebuilt from the logs; live sessions are updated incrementally as their
 * batches are flushed.
 *
 * Queries score with `topQuery` (the best `limit` hits, not every match), and `query()` yields
 * to the event loop between sessions, so a search over all history never holds the host up
 * for more than one session's share. Loading is asynchronous, one session at a time.
 */
export class SearchIndex {
  /** The manifest; each session's index is a file in `dir`. */
  readonly file: string;
  readonly dir: string;
  private sessions = new Map<string, SessionIndex>();
  /** Sessions the manifest lists whose index is not loaded yet (`loadManifest` first, `load` then). */
  private saved = new Map<string, { logSize: number; scanned: number }>();
  private manifestRead: Promise<void> | null = null;
  /** Saved sessions whose file could not be used: their logs must be indexed again (reconcile). */
  droppedOnLoad = 0;
  /** Which sessions those were (the search worker tells its host, which indexes them again). */
  readonly droppedIds: string[] = [];
  /** Sessions whose index changed since the last save (and removed ones, to delete). */
  private unsaved = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private dirtySince: number | null = null;
  private loading: Promise<void> | null = null;
  /** True once `load()` finished; nothing may be indexed before (the load would replace it). */
  loaded = false;
  /** Why the saved index was not used (missing is not a problem; corrupt is reported). */
  loadError: string | null = null;
  /** The last indexing failure (the index was then reset and is rebuilt from the logs). */
  lastError: string | null = null;
  /** Documents added to the index since this object was made: what indexing cost (tests, bench). */
  indexedDocuments = 0;
  /** Changes not applied yet, by session (a later one for the same session replaces the earlier). */
  private pending = new Map<string, Change>();
  /** Called when the index was reset (everything must be indexed again: the worker tells its host). */
  onReset: () => void = () => {};
  private applyTimer: ReturnType<typeof setTimeout> | null = null;
  private vacuuming: Promise<void> | null = null;
  /** A save writing the index in slices: nothing may change the index until it is done. */
  private saving: Promise<void> | null = null;
  /** The sessions that save is writing (a `flush()` meanwhile writes them too). */
  private savingIds = new Set<string>();
  /** How often the last load let the event loop run (tests: a long load does not hold it). */
  loadPauses = 0;

  constructor(
    dataDir: string,
    private readonly delayMs = 5000,
    private readonly maxDelayMs = 120_000,
    /** Tells the person: search still works (rebuilt or unsaved), but they should know why it may miss things. */
    private readonly onProblem: (message: string) => void = () => {},
  ) {
    this.file = join(dataDir, 'sessions', 'search-index.json');
    this.dir = join(dataDir, 'sessions', 'search');
  }

  private sessionFile(sessionId: string): string {
    return join(this.dir, `${encodeURIComponent(sessionId)}.json`);
  }

  /**
   * Loads the saved indexes (once). A missing manifest is empty; a damaged one is reported and
   * empty; a session whose file is missing, damaged or of another log size is left out (and so
   * re-indexed from its log by the caller's reconcile).
   */
  load(): Promise<void> {
    this.loading ??= (async () => {
      await this.loadManifest();
      // One slicer for the whole load: it never holds the event loop for more than a slice.
      const slicer = new Slicer();
      for (const [sessionId, saved] of [...this.saved]) {
        if (this.saved.get(sessionId) !== saved) continue; // changed or removed meanwhile: the change wins
        const loaded = await this.loadSession(sessionId, saved.logSize, slicer);
        if (this.saved.get(sessionId) !== saved) continue;
        this.saved.delete(sessionId);
        if (loaded) this.sessions.set(sessionId, { ...loaded, docs: { ...loaded.docs, scanned: saved.scanned } });
        else {
          this.droppedOnLoad++;
          this.droppedIds.push(sessionId);
        }
        if (this.pending.has(sessionId)) this.applySoon();
      }
    })();
    return this.loading;
  }

  /**
   * Reads the manifest only: which sessions have a saved index and of what log size, so the
   * history can be reconciled at start without waiting for the indexes themselves (`load`).
   * Indexing may start once it has resolved (`loaded`); a change to a session not loaded yet
   * replaces its saved index.
   */
  loadManifest(): Promise<void> {
    this.manifestRead ??= (async () => {
      let text: string | null = null;
      try {
        text = await readFile(this.file, 'utf8');
      } catch (error) {
        // No index yet is normal: everything is indexed from the logs (so is an unreadable one).
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') logWarn(`Reading ${this.file}`, error);
      }
      if (text !== null) {
        try {
          const head = JSON.parse(text) as SearchFileHead;
          if (head.version !== VERSION) throw new Error(`version ${String(head.version)}`);
          for (const [sessionId, saved] of Object.entries(head.sessions)) this.saved.set(sessionId, { logSize: saved.logSize, scanned: saved.scanned });
        } catch (error) {
          this.saved = new Map();
          this.loadError = `The search index was unreadable and is being rebuilt from the session logs (${(error as Error).message}).`;
        }
      }
      this.loaded = true;
    })();
    return this.manifestRead;
  }

  private async loadSession(sessionId: string, logSize: number, slicer: Slicer): Promise<SessionIndex | null> {
    const file = this.sessionFile(sessionId);
    // Read line by line: the file's whole text and its split lines are never held at once (a
    // 50,000-entry session's file is ~10 MB; V8 keeps the pages such a peak needed).
    const stream = createReadStream(file, { encoding: 'utf8' });
    const lines = createInterface({ input: stream, crlfDelay: Infinity })[Symbol.asyncIterator]();
    let postings: PostingsFile | null = null;
    try {
      const first = await lines.next();
      const head = JSON.parse(first.done ? '' : first.value) as SessionFileHead;
      // A save interrupted between a session's file and the manifest leaves them disagreeing: re-index.
      if (head.version !== VERSION || head.sessionId !== sessionId || head.logSize !== logSize) return null;
      postings = new PostingsFile(this.dir);
      const { entries, mini, texts, docEntries } = await loadSessionLines<Doc>({ [Symbol.asyncIterator]: () => lines }, OPTIONS, slicer, postings);
      compactTree(mini);
      this.loadPauses = slicer.pauses;
      return { docs: { logSize, scanned: 0, entries }, mini, texts, docEntries, added: 0, postings };
    } catch (error) {
      postings?.close();
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') logWarn(`Reading ${file} (the session is re-indexed from its log)`, error);
      return null;
    } finally {
      stream.destroy();
    }
  }

  /** The log size a session's documents reflect, or will once pending changes apply (undefined: not indexed). */
  indexedLogSize(sessionId: string): number | undefined {
    const pending = this.pending.get(sessionId);
    if (pending) return pending === 'remove' ? undefined : 'texts' in pending ? pending.texts.logSize : pending.logSize;
    return this.sessions.get(sessionId)?.docs.logSize ?? this.saved.get(sessionId)?.logSize;
  }

  indexedSessions(): string[] {
    const ids = new Set([...this.sessions.keys(), ...this.saved.keys()]);
    for (const [sessionId, pending] of this.pending) {
      if (pending === 'remove') ids.delete(sessionId);
      else ids.add(sessionId);
    }
    return [...ids];
  }

  /** What the indexes hold (the worker's `memory` answer; the guard counts it). */
  memory(): { documents: number; postings: number; postingBytes: number; mapPostings: number; textBytes: number; postingFileBytes: number } {
    this.apply();
    const held = { documents: 0, postings: 0, postingBytes: 0, mapPostings: 0, textBytes: 0, postingFileBytes: 0 };
    for (const { mini, texts } of this.sessions.values()) {
      held.documents += mini.documentCount;
      held.textBytes += texts.compressedBytes;
      const index: Iterable<[string, Map<number, Map<number, number> | CompactPostings | FilePostings>]> = mini['_index'];
      for (const [, fields] of index) {
        for (const postings of fields.values()) {
          held.postings += postings.size;
          if (postings instanceof CompactPostings) held.postingBytes += postings.bytes;
          else if (postings instanceof FilePostings) {
            held.postingBytes += postings.bytes;
            held.postingFileBytes += postings.fileBytes;
          } else held.mapPostings += postings.size;
        }
      }
    }
    return held;
  }

  get documentCount(): number {
    this.apply();
    let count = 0;
    for (const { mini } of this.sessions.values()) count += mini.documentCount;
    return count;
  }

  /**
   * Brings a session's documents in line with its state. `full` scans every entry and drops
   * the ones that are gone; otherwise only the current turn onward is rescanned. The change is
   * queued and applied in one batch shortly after (or before the next search); entries of a
   * turn still running are indexed once it ends, so a streaming reply is not re-indexed per chunk.
   */
  indexState(state: SessionState, logSize: number, full: boolean): void {
    const previous = this.pending.get(state.sessionId);
    const wasFull = typeof previous === 'object' && 'full' in previous && previous.full;
    this.pending.set(state.sessionId, { state, logSize, full: full || wasFull });
    this.applySoon();
  }

  /** The same change as `indexState`, as plain texts: a later one for the same session is merged in. */
  indexTexts(texts: IndexTexts): void {
    const previous = this.pending.get(texts.sessionId);
    if (typeof previous === 'object' && 'texts' in previous) {
      const before = previous.texts;
      const present = texts.present ?? (before.present ? [...before.present, ...texts.ids] : null);
      texts = {
        ...texts,
        full: texts.full || before.full,
        ids: [...before.ids, ...texts.ids],
        kinds: [...before.kinds, ...texts.kinds],
        texts: [...before.texts, ...texts.texts],
        present,
      };
    }
    this.pending.set(texts.sessionId, { texts });
    this.applySoon();
  }

  removeSession(sessionId: string): void {
    if (!this.sessions.has(sessionId) && !this.saved.has(sessionId) && !this.pending.has(sessionId)) return;
    this.pending.set(sessionId, 'remove');
    this.applySoon();
  }

  /** Resolves once every queued change is applied and no vacuum is running (tests, quitting). */
  async idle(): Promise<void> {
    for (;;) {
      if (this.vacuuming) await this.vacuuming;
      if (this.saving) await this.saving;
      if (this.loading && this.saved.size) await this.loading;
      this.apply();
      if (!this.vacuuming && !this.saving && this.pending.size === 0) return;
    }
  }

  private applySoon(): void {
    this.applyTimer ??= setTimeout(() => {
      this.applyTimer = null;
      this.apply();
    }, 50);
  }

  /**
   * Applies the queued changes, unless a vacuum is walking an index (then they wait for it).
   * No indexing error escapes: the index is reset and rebuilt from the logs (search lags, the
   * app stays up).
   */
  private apply(): void {
    if (this.vacuuming || this.saving || this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      for (const [sessionId, change] of batch) {
        // A session whose saved index is loading now gets its change once it is loaded (a full
        // re-index of a long session costs far more than checking its entries' signatures).
        if (change !== 'remove' && this.loading && this.saved.has(sessionId)) {
          this.pending.set(sessionId, change);
          continue;
        }
        // Otherwise a change replaces a saved index not loaded (the state it comes from is newer).
        this.saved.delete(sessionId);
        if (change === 'remove') this.dropSession(sessionId);
        else if ('texts' in change) this.applyTexts(change.texts);
        else this.applyState(change.state, change.logSize, change.full);
        this.unsaved.add(sessionId);
      }
    } catch (error) {
      this.reset(error);
    }
    this.schedule();
    this.vacuumIfDirty();
  }

  private vacuumIfDirty(): void {
    if (this.saving) return;
    for (const { mini } of this.sessions.values()) {
      if (mini.dirtCount < VACUUM_DIRT || mini.dirtFactor < 0.1) continue;
      this.vacuuming = mini
        .vacuum({ batchSize: 1000, batchWait: 5 })
        // The vacuum left holes in the compact postings: squeezed out before anything else walks them.
        .then(() => compactIndex(mini))
        // What it brought into memory goes back to the file (the session may have been dropped meanwhile).
        .then(() => this.spill(mini))
        .catch((error: unknown) => this.reset(error))
        .finally(() => {
          this.vacuuming = null;
          if (this.pending.size) this.applySoon();
          else this.vacuumIfDirty();
        });
      return;
    }
  }

  private problem(message: string): void {
    // Reported once per distinct message: a disk that stays full must not repeat it on every save.
    if (message === this.lastError) return;
    this.lastError = message;
    logWarn(message);
    this.onProblem(message);
  }

  /** Starts over empty: the next reconcile re-indexes every log (their sizes no longer match). */
  private reset(error: unknown): void {
    this.problem(`The search index failed and is being rebuilt (${(error as Error)?.message ?? String(error)}).`);
    for (const sessionId of [...this.sessions.keys(), ...this.saved.keys()]) this.unsaved.add(sessionId);
    for (const session of this.sessions.values()) session.postings?.close();
    this.sessions = new Map();
    this.saved = new Map();
    this.schedule();
    this.onReset();
  }

  private applyTexts(change: IndexTexts): void {
    let session = this.sessions.get(change.sessionId);
    // A change that is not full, to a session this index holds nothing of (its saved index was
    // dropped on load, or the index was reset, before the host heard), is only part of the
    // session: it reflects no log size, so a pass over the logs (this run's or the next start's)
    // indexes the whole log, even if the host is killed before that.
    const partial = !change.full && (!session || session.docs.logSize === PARTIAL);
    if (!session) {
      session = newSession(change.logSize);
      this.sessions.set(change.sessionId, session);
    }
    for (let i = 0; i < change.ids.length; i++) this.indexText(session, change.ids[i], change.kinds[i], change.texts[i]);
    if (change.present) {
      const present = new Set(change.present);
      for (const entryId of session.docs.entries.keys()) if (!present.has(entryId)) this.removeEntry(session, entryId);
    }
    session.docs.scanned = change.scanned;
    session.docs.logSize = partial ? PARTIAL : change.logSize;
    compactIfGrown(session);
  }

  private applyState(state: SessionState, logSize: number, full: boolean): void {
    let session = this.sessions.get(state.sessionId);
    if (!session) {
      session = newSession(logSize);
      this.sessions.set(state.sessionId, session);
      full = true;
    }
    const { docs } = session;
    const entries = state.entries;
    const until = settledEnd(state);
    let from = 0;
    if (!full) {
      from = Math.min(docs.scanned, until);
      // Rescan from the start of the turn the last scan ended in: its reply and tool calls grow.
      while (from > 0 && entries[from - 1]?.kind !== 'user') from--;
      if (from > 0) from--;
    }
    const seen = full ? new Set<string>(entries.slice(until).map((entry) => entry.id)) : null;
    for (let i = from; i < until; i++) {
      const entry = entries[i];
      seen?.add(entry.id);
      this.indexEntry(session, entry);
    }
    if (seen) {
      for (const entryId of docs.entries.keys()) if (!seen.has(entryId)) this.removeEntry(session, entryId);
    }
    docs.scanned = until;
    docs.logSize = logSize;
    compactIfGrown(session);
  }

  private indexEntry(session: SessionIndex, entry: TranscriptEntry): void {
    this.indexText(session, entry.id, entry.kind, SEARCHABLE_KINDS.has(entry.kind) ? entryText(entry) : '');
  }

  private indexText(session: SessionIndex, entryId: string, kind: string, whole: string): void {
    const text = whole.length > MAX_INDEXED_CHARS ? whole.slice(0, MAX_INDEXED_CHARS) : whole;
    const previous = session.docs.entries.get(entryId);
    if (!text.trim()) {
      if (previous) this.removeEntry(session, entryId);
      return;
    }
    const sig = signature(text);
    if (previous?.sig === sig) return;
    if (previous) this.removeEntry(session, entryId);
    const chunks = chunkText(text);
    const first = nextDocId(session.mini);
    // In the table first: a document's entry is its slot there.
    session.docs.entries.set(entryId, { sig, chunks: chunks.length, kind, first });
    for (const chunk of chunks) {
      const id = nextDocId(session.mini);
      session.mini.add({ id, text: chunk });
      session.texts.set(id, chunk);
      session.docEntries.set(id, entryId);
    }
    this.indexedDocuments += chunks.length;
    session.added += chunks.length;
  }

  private removeEntry(session: SessionIndex, entryId: string): void {
    const previous = session.docs.entries.get(entryId);
    if (!previous) return;
    for (let id = previous.first; id < previous.first + previous.chunks; id++) {
      if (!session.mini.has(id)) continue;
      session.texts.delete(id);
      session.docEntries.delete(id);
      session.mini.discard(id);
    }
    session.docs.entries.delete(entryId);
  }

  private dropSession(sessionId: string): void {
    this.sessions.get(sessionId)?.postings?.close();
    this.sessions.delete(sessionId);
  }

  /** Puts a session's postings held in memory into its postings file (after a save or a vacuum: nothing changes the index meanwhile). */
  private spill(mini: MiniSearch<Doc>): void {
    for (const session of this.sessions.values()) {
      if (session.mini !== mini) continue;
      session.postings = spillIndex(session.mini, session.postings, this.dir);
      compactTree(session.mini);
    }
  }

  /** Matches, best first, one per transcript entry (all at once: tests and small indexes). */
  search(query: string, limit = 50): RawHit[] {
    this.apply();
    const terms = queryTerms(query);
    const found: Found[] = [];
    for (const [sessionId, session] of this.sessions) found.push(...this.searchSession(sessionId, session, terms, limit));
    return merge(found, limit, terms);
  }

  /** The same as `search`, yielding to the event loop between sessions. */
  async query(query: string, limit = 50): Promise<RawHit[]> {
    this.apply();
    const terms = queryTerms(query);
    const found: Found[] = [];
    for (const sessionId of [...this.sessions.keys()]) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      const session = this.sessions.get(sessionId);
      if (session) found.push(...this.searchSession(sessionId, session, terms, limit));
    }
    return merge(found, limit, terms);
  }

  /** One session's best hits, one per entry: chunks of one entry share it, so ask for more until `limit` entries. */
  private searchSession(sessionId: string, session: SessionIndex, terms: string[], limit: number): Found[] {
    for (let want = limit * 2; ; want *= 4) {
      const top = topQuery(session.mini, terms, want, fuzzyRatio);
      const hits: Found[] = [];
      const seen = new Set<string>();
      for (const { shortId, score } of top) {
        const entryId = session.docEntries.get(shortId);
        const entry = entryId === undefined ? undefined : session.docs.entries.get(entryId);
        if (entryId === undefined || !entry || seen.has(entryId)) continue;
        seen.add(entryId);
        // The snippet is cut once the hits of every session are merged: only for the ones shown.
        hits.push({ hit: { sessionId, entryId, kind: entry.kind, snippet: '', score }, chunk: shortId - entry.first, shortId, texts: session.texts });
        if (hits.length >= limit) break;
      }
      if (hits.length >= limit || top.length < want) return hits;
    }
  }

  /** Saves `delayMs` after the last change, but at least every `maxDelayMs` while changes continue. */
  private schedule(): void {
    const now = Date.now();
    this.dirtySince ??= now;
    if (this.timer) clearTimeout(this.timer);
    const due = Math.min(now + this.delayMs, this.dirtySince + this.maxDelayMs);
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.dirtySince = null;
        this.saving ??= this.save().finally(() => {
          this.saving = null;
          if (this.pending.size) this.applySoon();
          else this.vacuumIfDirty();
        });
      },
      Math.max(0, due - now),
    );
  }

  /**
   * Saves what changed in slices (the timer's save: the event loop runs between them): each
   * changed session's file, then the manifest. The index does not change meanwhile (`apply`
   * waits for it, as for a vacuum).
   */
  private async save(): Promise<void> {
    if (this.vacuuming) await this.vacuuming.catch(() => {});
    const ids = [...this.unsaved];
    this.unsaved.clear();
    for (const id of ids) this.savingIds.add(id);
    try {
      const slicer = new Slicer();
      for (const sessionId of ids) {
        const file = this.sessionFile(sessionId);
        const session = this.sessions.get(sessionId);
        if (!session) {
          rmSync(file, { force: true });
          continue;
        }
        const lines = [JSON.stringify(this.fileHead(sessionId, session))];
        for (const line of sessionLines(session.docs.entries, session.mini, session.texts)) {
          lines.push(line);
          await slicer.pause();
        }
        // Building the lines is the work; writing them is one call (the page cache takes it).
        writeFileAtomic(file, lines.join('\n'));
        // Saved: the postings built since go out of memory too.
        this.spill(session.mini);
      }
      writeFileAtomic(this.file, JSON.stringify(this.manifest()));
    } catch (error) {
      // A full disk must not take the app down: the index is saved again on the next change.
      for (const id of ids) this.unsaved.add(id);
      this.problem(`The search index could not be saved (${(error as Error).message}).`);
    } finally {
      this.savingIds.clear();
    }
  }

  private fileHead(sessionId: string, session: SessionIndex): SessionFileHead {
    return { version: VERSION, sessionId, logSize: session.docs.logSize };
  }

  private manifest(): SearchFileHead {
    const manifest: SearchFileHead = { version: VERSION, sessions: {} };
    // Sessions not loaded yet keep their files and their rows.
    for (const [sessionId, saved] of this.saved) manifest.sessions[sessionId] = saved;
    for (const [sessionId, { docs }] of this.sessions) manifest.sessions[sessionId] = { logSize: docs.logSize, scanned: docs.scanned };
    return manifest;
  }

  /** Saves what changed now, at once (quitting, tests): each changed session's file, then the manifest that points at them. */
  flush(): void {
    this.apply();
    if (!this.timer && !this.saving) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.dirtySince = null;
    // A save in slices may be under way: what it has not written yet is written here.
    for (const sessionId of new Set([...this.unsaved, ...this.savingIds])) {
      const session = this.sessions.get(sessionId);
      if (!session) {
        rmSync(this.sessionFile(sessionId), { force: true });
        continue;
      }
      const lines = [JSON.stringify(this.fileHead(sessionId, session)), ...sessionLines(session.docs.entries, session.mini, session.texts)];
      writeFileAtomic(this.sessionFile(sessionId), lines.join('\n'));
      this.spill(session.mini);
    }
    this.unsaved.clear();
    writeFileAtomic(this.file, JSON.stringify(this.manifest()));
  }
}

function newSession(logSize: number): SessionIndex {
  const entries = new EntryTable();
  return {
    docs: { logSize, scanned: 0, entries },
    mini: compactDocs(new MiniSearch(OPTIONS)),
    texts: new DocTexts(),
    docEntries: new DocEntries(entries),
    added: 0,
    postings: null,
  };
}

/** After many additions (a session indexed from its log), its new postings `Map`s become compact. */
function compactIfGrown(session: SessionIndex): void {
  if (session.added < COMPACT_AFTER) return;
  compactIndex(session.mini);
  session.added = 0;
}

/** A hit before its snippet is cut (from its document's text, which is compressed). */
interface Found {
  hit: RawHit;
  /** Which chunk of its entry the document is (a later one's snippet starts mid-text). */
  chunk: number;
  shortId: number;
  texts: DocTexts;
}

/** Hits of every session, best first, at most `limit`, with their snippets. */
function merge(found: Found[], limit: number, terms: string[]): RawHit[] {
  const best = found.sort((a, b) => b.hit.score - a.hit.score).slice(0, limit);
  for (const { hit, chunk, shortId, texts } of best) hit.snippet = continued(chunk, snippet(texts.get(shortId) ?? '', terms));
  return best.map(({ hit }) => hit);
}
