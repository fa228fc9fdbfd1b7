// Over 400 lines on purpose: one class owns the MiniSearch index, its per-session documents, saving
// and loading them, so "the index reflects the logs" is checked in one file.
import MiniSearch, { type Options, type SearchResult } from 'minisearch';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { entryText, SEARCHABLE_KINDS } from '../../src-shared/history/entryText';
import type { SessionState, TranscriptEntry } from '../../src-shared/session/state';
import { writeFileAtomic } from '../store/jsonFile';
import { logWarn } from '../log/mainLog';

/** One indexed document: a piece (≤ CHUNK characters) of one transcript entry. */
interface Doc {
  id: string;
  sessionId: string;
  entryId: string;
  kind: string;
  text: string;
}

interface SessionDocs {
  /** Size of the log the documents reflect; a different size on disk means "re-index". */
  logSize: number;
  /** How many entries the last scan saw (live updates rescan only the current turn onward). */
  scanned: number;
  /** entryId → signature of the indexed text and how many chunk documents it has. */
  entries: Record<string, { sig: string; chunks: number }>;
}

/** First line of the file; the MiniSearch JSON follows on the second (loaded asynchronously). */
interface SearchFileHead {
  version: number;
  sessions: Record<string, SessionDocs>;
}

export interface RawHit {
  sessionId: string;
  entryId: string;
  kind: string;
  snippet: string;
  score: number;
}

const VERSION = 2;
/** A vacuum is worth it past this many discarded documents (and a tenth of the index). */
const VACUUM_DIRT = 500;
/** Long messages are split so a match's snippet is cheap to find and documents stay small. */
const CHUNK = 2000;

const OPTIONS: Options<Doc> = {
  idField: 'id',
  // MiniSearch's auto-vacuum pauses between batches, and a term added during the pause breaks
  // its tree walk (7.2: "Cannot read properties of undefined (reading 'keys')", an unhandled
  // rejection that took the host down). We vacuum ourselves, with no change in between.
  autoVacuum: false,
  fields: ['text'],
  storeFields: ['sessionId', 'entryId', 'kind', 'text'],
  searchOptions: {
    prefix: true,
    fuzzy: (term) => (term.length > 5 ? 0.15 : false),
    combineWith: 'AND',
  },
};

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
      const space = text.lastIndexOf(' ', end);
      const newline = text.lastIndexOf('\n', end);
      const cut = Math.max(space, newline);
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
function continued(docId: string, text: string): string {
  return !docId.endsWith('#0') && !text.startsWith('…') ? `…${text}` : text;
}

/**
 * Full-text search over every session's transcript entries: MiniSearch (pure JS, no native
 * module), persisted to `sessions/search-index.json`. Each session's documents remember the
 * log size they were built from, so a missing, corrupt or stale index is rebuilt from the
 * logs; live sessions are updated incrementally as their batches are flushed.
 *
 * A big index takes long to (de)serialize (20,000 documents: ~0.8 s each way), so it is loaded
 * asynchronously in slices (`load()`, off the app's start path) and saved at most every
 * `maxDelayMs` while changes keep coming (a crash costs only re-indexing what changed since).
 */
export class SearchIndex {
  readonly file: string;
  private mini: MiniSearch<Doc>;
  private sessions = new Map<string, SessionDocs>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private dirtySince: number | null = null;
  private loading: Promise<void> | null = null;
  /** True once `load()` finished; nothing may be indexed before (the load would replace it). */
  loaded = false;
  /** Why the saved index was not used (missing is not a problem; corrupt is reported). */
  loadError: string | null = null;
  /** The last indexing failure (the index was then reset and is rebuilt from the logs). */
  lastError: string | null = null;
  /** Changes not applied yet, by session (a later one for the same session replaces the earlier). */
  private pending = new Map<string, { state: SessionState; logSize: number; full: boolean } | 'remove'>();
  private applyTimer: ReturnType<typeof setTimeout> | null = null;
  private vacuuming: Promise<void> | null = null;

  constructor(
    dataDir: string,
    private readonly delayMs = 5000,
    private readonly maxDelayMs = 120_000,
    /** Tells the person: search still works (rebuilt or unsaved), but they should know why it may miss things. */
    private readonly onProblem: (message: string) => void = () => {},
  ) {
    this.file = join(dataDir, 'sessions', 'search-index.json');
    this.mini = new MiniSearch(OPTIONS);
  }

  /** Loads the saved index (once); a missing one is empty, a damaged one is reported and empty. */
  load(): Promise<void> {
    this.loading ??= (async () => {
      let text: string | null = null;
      try {
        text = await readFile(this.file, 'utf8');
      } catch (error) {
        // No index yet is normal: everything is indexed from the logs (so is an unreadable one).
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') logWarn(`Reading ${this.file}`, error);
      }
      if (text !== null) {
        try {
          const newline = text.indexOf('\n');
          const head = JSON.parse(newline === -1 ? text : text.slice(0, newline)) as SearchFileHead;
          if (head.version !== VERSION) throw new Error(`version ${String(head.version)}`);
          if (newline === -1) throw new Error('no index after the header');
          this.mini = await MiniSearch.loadJSONAsync(text.slice(newline + 1), OPTIONS);
          this.sessions = new Map(Object.entries(head.sessions));
        } catch (error) {
          this.mini = new MiniSearch(OPTIONS);
          this.sessions = new Map();
          this.loadError = `The search index was unreadable and is being rebuilt from the session logs (${(error as Error).message}).`;
        }
      }
      this.loaded = true;
    })();
    return this.loading;
  }

  /** The log size a session's documents reflect, or will once pending changes apply (undefined: not indexed). */
  indexedLogSize(sessionId: string): number | undefined {
    const pending = this.pending.get(sessionId);
    if (pending) return pending === 'remove' ? undefined : pending.logSize;
    return this.sessions.get(sessionId)?.logSize;
  }

  indexedSessions(): string[] {
    const ids = new Set(this.sessions.keys());
    for (const [sessionId, pending] of this.pending) {
      if (pending === 'remove') ids.delete(sessionId);
      else ids.add(sessionId);
    }
    return [...ids];
  }

  get documentCount(): number {
    this.apply();
    return this.mini.documentCount;
  }

  /**
   * Brings a session's documents in line with its state. `full` scans every entry and drops
   * the ones that are gone; otherwise only the current turn onward is rescanned. The change is
   * queued and applied in one batch shortly after (or before the next search); entries of a
   * turn still running are indexed once it ends, so a streaming reply is not re-indexed per chunk.
   */
  indexState(state: SessionState, logSize: number, full: boolean): void {
    const previous = this.pending.get(state.sessionId);
    const wasFull = typeof previous === 'object' && previous.full;
    this.pending.set(state.sessionId, { state, logSize, full: full || wasFull });
    this.applySoon();
  }

  removeSession(sessionId: string): void {
    if (!this.sessions.has(sessionId) && !this.pending.has(sessionId)) return;
    this.pending.set(sessionId, 'remove');
    this.applySoon();
  }

  /** Resolves once every queued change is applied and no vacuum is running (tests, quitting). */
  async idle(): Promise<void> {
    for (;;) {
      if (this.vacuuming) await this.vacuuming;
      this.apply();
      if (!this.vacuuming && this.pending.size === 0) return;
    }
  }

  private applySoon(): void {
    this.applyTimer ??= setTimeout(() => {
      this.applyTimer = null;
      this.apply();
    }, 50);
  }

  /**
   * Applies the queued changes, unless a vacuum is walking the index (then they wait for it).
   * No indexing error escapes: the index is reset and rebuilt from the logs (search lags, the
   * app stays up).
   */
  private apply(): void {
    if (this.vacuuming || this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      for (const [sessionId, change] of batch) {
        if (change === 'remove') this.dropSession(sessionId);
        else this.applyState(change.state, change.logSize, change.full);
      }
    } catch (error) {
      this.reset(error);
    }
    this.schedule();
    this.vacuumIfDirty();
  }

  private vacuumIfDirty(): void {
    if (this.mini.dirtCount < VACUUM_DIRT || this.mini.dirtFactor < 0.1) return;
    this.vacuuming = this.mini
      .vacuum({ batchSize: 1000, batchWait: 5 })
      .catch((error: unknown) => this.reset(error))
      .finally(() => {
        this.vacuuming = null;
        if (this.pending.size) this.applySoon();
      });
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
    this.mini = new MiniSearch(OPTIONS);
    this.sessions = new Map();
    this.schedule();
  }

  private applyState(state: SessionState, logSize: number, full: boolean): void {
    let docs = this.sessions.get(state.sessionId);
    if (!docs) {
      docs = { logSize, scanned: 0, entries: {} };
      this.sessions.set(state.sessionId, docs);
      full = true;
    }
    const entries = state.entries;
    // Entries of the running turn change with every chunk: they wait for the turn to end.
    let until = entries.length;
    if (state.currentTurnId) {
      let start = entries.length - 1;
      while (start >= 0 && entries[start].kind !== 'user') start--;
      if (start !== -1) until = start + 1;
    }
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
      this.indexEntry(state.sessionId, docs, entry);
    }
    if (seen) {
      for (const entryId of Object.keys(docs.entries)) if (!seen.has(entryId)) this.removeEntry(docs, entryId);
    }
    docs.scanned = until;
    docs.logSize = logSize;
  }

  private indexEntry(sessionId: string, docs: SessionDocs, entry: TranscriptEntry): void {
    const text = SEARCHABLE_KINDS.has(entry.kind) ? entryText(entry) : '';
    const previous = docs.entries[entry.id];
    if (!text.trim()) {
      if (previous) this.removeEntry(docs, entry.id);
      return;
    }
    const sig = signature(text);
    if (previous?.sig === sig) return;
    if (previous) this.removeEntry(docs, entry.id);
    const chunks = chunkText(text);
    this.mini.addAll(chunks.map((chunk, n) => ({ id: `${entry.id}#${n}`, sessionId, entryId: entry.id, kind: entry.kind, text: chunk })));
    docs.entries[entry.id] = { sig, chunks: chunks.length };
  }

  private removeEntry(docs: SessionDocs, entryId: string): void {
    const previous = docs.entries[entryId];
    if (!previous) return;
    for (let n = 0; n < previous.chunks; n++) {
      const id = `${entryId}#${n}`;
      if (this.mini.has(id)) this.mini.discard(id);
    }
    delete docs.entries[entryId];
  }

  private dropSession(sessionId: string): void {
    const docs = this.sessions.get(sessionId);
    if (!docs) return;
    for (const entryId of Object.keys(docs.entries)) this.removeEntry(docs, entryId);
    this.sessions.delete(sessionId);
  }

  /** Matches, best first, one per transcript entry. */
  search(query: string, limit = 50): RawHit[] {
    this.apply();
    const results: SearchResult[] = this.mini.search(query);
    const terms = [...new Set(results.flatMap((r) => r.terms))];
    const hits: RawHit[] = [];
    const seen = new Set<string>();
    for (const result of results) {
      const entryId = String(result.entryId);
      if (seen.has(entryId)) continue;
      seen.add(entryId);
      hits.push({
        sessionId: String(result.sessionId),
        entryId,
        kind: String(result.kind),
        snippet: continued(String(result.id), snippet(String(result.text ?? ''), terms.length ? terms : query.split(/\s+/))),
        score: result.score,
      });
      if (hits.length >= limit) break;
    }
    return hits;
  }

  /** Saves `delayMs` after the last change, but at least every `maxDelayMs` while changes continue. */
  private schedule(): void {
    const now = Date.now();
    this.dirtySince ??= now;
    if (this.timer) clearTimeout(this.timer);
    const due = Math.min(now + this.delayMs, this.dirtySince + this.maxDelayMs);
    this.timer = setTimeout(
      () => {
        try {
          this.flush();
        } catch (error) {
          // A full disk must not take the app down: the index is saved again on the next change.
          this.problem(`The search index could not be saved (${(error as Error).message}).`);
        }
      },
      Math.max(0, due - now),
    );
  }

  /** Saves the index now if it changed. */
  flush(): void {
    this.apply();
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.dirtySince = null;
    const head: SearchFileHead = { version: VERSION, sessions: Object.fromEntries(this.sessions) };
    writeFileAtomic(this.file, `${JSON.stringify(head)}\n${JSON.stringify(this.mini)}`);
  }
}
