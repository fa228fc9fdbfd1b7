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
/** Long messages are split so a match's snippet is cheap to find and documents stay small. */
const CHUNK = 2000;

const OPTIONS: Options<Doc> = {
  idField: 'id',
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

  constructor(
    dataDir: string,
    private readonly delayMs = 5000,
    private readonly maxDelayMs = 120_000,
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

  /** The log size a session's documents reflect (undefined: not indexed). */
  indexedLogSize(sessionId: string): number | undefined {
    return this.sessions.get(sessionId)?.logSize;
  }

  indexedSessions(): string[] {
    return [...this.sessions.keys()];
  }

  get documentCount(): number {
    return this.mini.documentCount;
  }

  /**
   * Brings a session's documents in line with its state. `full` scans every entry and drops
   * the ones that are gone; otherwise only the current turn onward is rescanned (cheap while
   * a reply streams; unchanged entries are skipped by signature).
   */
  indexState(state: SessionState, logSize: number, full: boolean): void {
    let docs = this.sessions.get(state.sessionId);
    if (!docs) {
      docs = { logSize, scanned: 0, entries: {} };
      this.sessions.set(state.sessionId, docs);
      full = true;
    }
    const entries = state.entries;
    let from = 0;
    if (!full) {
      from = Math.min(docs.scanned, entries.length);
      // Rescan from the start of the turn the last scan ended in: its reply and tool calls grow.
      while (from > 0 && entries[from - 1]?.kind !== 'user') from--;
      if (from > 0) from--;
    }
    const seen = full ? new Set<string>() : null;
    for (let i = from; i < entries.length; i++) {
      const entry = entries[i];
      seen?.add(entry.id);
      this.indexEntry(state.sessionId, docs, entry);
    }
    if (seen) {
      for (const entryId of Object.keys(docs.entries)) if (!seen.has(entryId)) this.removeEntry(docs, entryId);
    }
    docs.scanned = entries.length;
    docs.logSize = logSize;
    this.schedule();
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

  removeSession(sessionId: string): void {
    const docs = this.sessions.get(sessionId);
    if (!docs) return;
    for (const entryId of Object.keys(docs.entries)) this.removeEntry(docs, entryId);
    this.sessions.delete(sessionId);
    this.schedule();
  }

  /** Matches, best first, one per transcript entry. */
  search(query: string, limit = 50): RawHit[] {
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
    this.timer = setTimeout(() => this.flush(), Math.max(0, due - now));
  }

  /** Saves the index now if it changed. */
  flush(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.dirtySince = null;
    const head: SearchFileHead = { version: VERSION, sessions: Object.fromEntries(this.sessions) };
    writeFileAtomic(this.file, `${JSON.stringify(head)}\n${JSON.stringify(this.mini)}`);
  }
}
