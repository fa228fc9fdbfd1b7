import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SessionState, TranscriptEntry } from '../../src-shared/session/state';
import { UserError } from '../errors/errors';
import { logWarn } from '../log/mainLog';
import type { IdleReply, ManifestReply, SearchReply, SearchRequest, WorkerMemory } from './searchMessages';
import type { RawHit } from './searchIndex';
import { changeTexts, packTexts, settledEnd } from './searchTexts';

type Ask = Extract<SearchRequest, { id: number }>;
type Question = Ask extends infer R ? (R extends Ask ? Omit<R, 'id'> : never) : never;

/**
 * The search index as the history service sees it (the API `SearchIndex` had), kept in a worker
 * thread (`searchWorker.ts`): indexing, loading, querying and saving run there, so the host's
 * event loop only posts messages, and a query's latency does not depend on the host's other work.
 *
 * The host keeps what it must answer at once: the log size each session's index reflects (the
 * manifest, then what it sent) and which entry objects it has sent. A worker that dies is
 * started again from the saved index, the person is told, `onRespawn` re-indexes what changed
 * since the last save, and a query that was running is asked again.
 *
 * The worker is started by the first thing that needs it (a question, an index change), not when
 * the proxy is made: a host's cold start and a core that never searches (most tests) pay no
 * thread and no index load. `onStart` runs once it is started (the owner brings it up to date);
 * queries and `idle()` wait for it.
 */
export class SearchProxy {
  /** True once the manifest is read (indexing may start). */
  loaded = false;
  loadError: string | null = null;
  droppedOnLoad = 0;
  /** Entry texts sent to the worker since the proxy was made (tests, bench: what a start costs). */
  textsSent = 0;
  /** Documents the worker indexed, as of the last `idle()` (tests, bench). */
  indexedDocuments = 0;
  documentCount = 0;
  /** Called after a re-spawned worker loaded the saved index (the host re-indexes what changed). */
  onRespawn: () => Promise<void> = async () => {};
  /** Called once the worker is first started (the owner loads the manifest and indexes what changed). */
  onStart: () => Promise<void> = async () => {};
  private worker: Worker | null = null;
  private nextId = 1;
  private waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private logSizes = new Map<string, number>();
  private sent = new Map<string, WeakSet<TranscriptEntry>>();
  /**
   * Restored sessions' entries as folded from `logSize` bytes of their logs, until their first
   * change is sent: when the saved index reflects that size, it holds those entries' texts, and
   * only what the reducer added or replaced since is sent (not every entry again).
   */
  private restoredFrom = new Map<string, { logSize: number; entries: readonly TranscriptEntry[]; settled: number }>();
  private manifestRead: Promise<void> | null = null;
  private loading: Promise<void> | null = null;
  /** Resolves once a re-spawned worker has loaded (queries wait for it). */
  private ready: Promise<void> = Promise.resolve();
  private closing = false;
  private disposed: Promise<void> | null = null;
  /** Set when the worker died too often to start again: every question gets this message. */
  private broken: string | null = null;
  private crashes = 0;

  constructor(
    private readonly dataDir: string,
    private readonly onProblem: (message: string) => void = () => {},
  ) {}

  /** True once the worker was started (by a question, an index change, or `start()`). */
  get started(): boolean {
    return this.worker !== null;
  }

  /** Starts the worker if nothing did yet; resolves once `onStart` is done. */
  start(): Promise<void> {
    // Quitting or off: nothing is started again (a question then gets the refusal from `ask`).
    if (!this.closing && !this.broken) this.port();
    return this.ready;
  }

  /** The running worker, started on first use. */
  private port(): Worker {
    if (this.worker) return this.worker;
    this.spawn();
    this.ready = this.onStart().catch((error: unknown) => logWarn('Bringing the search index up to date after starting it', error));
    return this.worker!;
  }

  private spawn(): void {
    const worker = startWorker();
    // The worker must not keep the process alive: quitting flushes it first (`dispose`).
    worker.unref();
    worker.on('message', (reply: SearchReply) => this.receive(reply));
    worker.on('error', (error) => logWarn('The search worker failed', error));
    worker.on('exit', (code) => {
      if (this.worker !== worker || this.closing) return;
      this.crashed(`exit code ${code}`);
    });
    worker.postMessage({ type: 'open', dataDir: this.dataDir } satisfies SearchRequest);
    this.worker = worker;
  }

  private receive(reply: SearchReply): void {
    if (reply.type === 'problem') return this.onProblem(reply.message);
    if (reply.type === 'reset') {
      // The worker's index started over: every session is indexed again by the next reconcile.
      this.logSizes.clear();
      this.sent.clear();
      return;
    }
    const waiting = this.waiting.get(reply.id);
    this.waiting.delete(reply.id);
    if (reply.type === 'failed') waiting?.reject(new Error(reply.message));
    else waiting?.resolve(reply.value);
  }

  private crashed(why: string): void {
    // A worker that dies at every start (out of memory on a huge history, say) is not started forever.
    const last = ++this.crashes > MAX_CRASHES;
    const message = last
      ? `The search worker stopped ${this.crashes} times (last: ${why}); search is off until the app restarts.`
      : `The search worker stopped (${why}); search is restarting from the saved index.`;
    logWarn(message);
    this.onProblem(message);
    for (const { reject } of this.waiting.values()) reject(last ? new UserError(message) : new WorkerGone(message));
    this.waiting.clear();
    if (last) {
      this.broken = message;
      this.ready = Promise.resolve();
      return;
    }
    this.logSizes.clear();
    this.sent.clear();
    this.manifestRead = null;
    this.loading = null;
    this.spawn();
    this.ready = this.loadManifest()
      .then(() => this.load())
      .then(() => this.onRespawn())
      .catch((error: unknown) => logWarn('Reloading the search index after the worker stopped', error));
  }

  private ask<T>(question: Question): Promise<T> {
    if (this.broken) return Promise.reject(new UserError(this.broken));
    if (this.closing) return Promise.reject(new UserError('Search has stopped: the app is quitting.'));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.port().postMessage({ ...question, id } as SearchRequest);
    });
  }

  loadManifest(): Promise<void> {
    this.manifestRead ??= this.ask<ManifestReply>({ type: 'loadManifest' }).then((reply) => {
      // A change sent meanwhile is newer than the manifest.
      for (const [sessionId, logSize] of reply.sessions) if (!this.logSizes.has(sessionId)) this.logSizes.set(sessionId, logSize);
      this.loadError = reply.loadError;
      this.loaded = true;
    });
    return this.manifestRead;
  }

  load(): Promise<void> {
    this.loading ??= this.ask<string[]>({ type: 'load' }).then((dropped) => {
      for (const sessionId of dropped) this.forget(sessionId);
      this.droppedOnLoad += dropped.length;
    });
    return this.loading;
  }

  indexedLogSize(sessionId: string): number | undefined {
    return this.logSizes.get(sessionId);
  }

  indexedSessions(): string[] {
    return [...this.logSizes.keys()];
  }

  /** A session was folded back from `logSize` bytes of its log (before anything was recorded on it). */
  restored(sessionId: string, logSize: number, state: SessionState): void {
    if (this.closing) return;
    this.restoredFrom.set(sessionId, { logSize, entries: state.entries, settled: settledEnd(state) });
    // Entry objects sent from another fold of its log (a search before the tab opened) are not this state's.
    this.sent.delete(sessionId);
  }

  /** The session is no longer live: its restored entries are not kept for it. */
  closed(sessionId: string): void {
    this.restoredFrom.delete(sessionId);
  }

  /** Sends the session's entries the worker has not seen (all of them when `full`), as plain texts. */
  indexState(state: SessionState, logSize: number, full: boolean): void {
    if (this.closing) return;
    let sent = this.sent.get(state.sessionId);
    if (!sent) {
      sent = this.sentBeforeRestart(state);
      // The saved index has the restored entries: what changed since is new or replaced objects.
      if (sent) full = false;
    }
    if (full || !sent) {
      // The worker compares each entry's text with what it indexed: unchanged ones cost a hash.
      full = true;
      sent = new WeakSet();
      this.sent.set(state.sessionId, sent);
    }
    const texts = changeTexts(state, logSize, full, sent);
    this.textsSent += texts.ids.length;
    const change = packTexts(texts);
    this.logSizes.set(state.sessionId, logSize);
    this.port().postMessage({ type: 'index', change } satisfies SearchRequest, [change.packed.buffer, change.lengths.buffer]);
  }

  /**
   * What the saved index holds of a restored session, as entries already sent: those of the fold
   * it was restored from, when the index reflects that same log size (a stale index, from a host
   * killed before it saved, gets every entry: the worker keeps those whose text it has). The
   * state must be the restored one (its first entry the same object): another fold's entries
   * share no object with it.
   */
  private sentBeforeRestart(state: SessionState): WeakSet<TranscriptEntry> | undefined {
    const from = this.restoredFrom.get(state.sessionId);
    if (!from) return undefined;
    this.restoredFrom.delete(state.sessionId);
    if (this.logSizes.get(state.sessionId) !== from.logSize || state.entries[0] !== from.entries[0]) return undefined;
    const sent = new WeakSet<TranscriptEntry>();
    for (let i = 0; i < from.settled; i++) sent.add(from.entries[i]);
    this.sent.set(state.sessionId, sent);
    return sent;
  }

  removeSession(sessionId: string): void {
    if (!this.logSizes.has(sessionId)) return;
    this.forget(sessionId);
    this.port().postMessage({ type: 'remove', sessionId } satisfies SearchRequest);
  }

  private forget(sessionId: string): void {
    this.logSizes.delete(sessionId);
    this.sent.delete(sessionId);
    this.restoredFrom.delete(sessionId);
  }

  /** Matches, best first; a query the worker died on is asked again once it is back. */
  async query(text: string, limit = 50): Promise<RawHit[]> {
    await this.start();
    try {
      return await this.ask<RawHit[]>({ type: 'query', text, limit });
    } catch (error) {
      if (!(error instanceof WorkerGone)) throw error;
      await this.ready;
      return this.ask<RawHit[]>({ type: 'query', text, limit });
    }
  }

  /** Resolves once the worker applied every change sent so far (tests, bench). */
  async idle(): Promise<void> {
    await this.start();
    const reply = await this.ask<IdleReply>({ type: 'idle' });
    this.indexedDocuments = reply.indexedDocuments;
    this.documentCount = reply.documentCount;
  }

  /** The worker's heap and what its indexes hold (bench, tests). */
  memory(): Promise<WorkerMemory> {
    return this.ask<WorkerMemory>({ type: 'memory' });
  }

  /** Saves what changed now (quitting): resolves once the worker wrote it. */
  flush(): Promise<void> {
    // A worker never started has nothing unsaved (nothing was sent to it).
    if (!this.worker && !this.closing && !this.broken) return Promise.resolve();
    return this.ask<null>({ type: 'flush' }).then(() => {});
  }

  /** Saves, then stops the worker. Quitting twice waits for the one stop (a stopped worker answers nothing). */
  dispose(): Promise<void> {
    this.disposed ??= (async () => {
      try {
        if (!this.broken) await this.flush();
      } finally {
        this.closing = true;
        this.restoredFrom.clear();
        await this.worker?.terminate();
        for (const { reject } of this.waiting.values()) reject(new UserError('Search has stopped: the app is quitting.'));
        this.waiting.clear();
      }
    })();
    return this.disposed;
  }
}

class WorkerGone extends Error {}

/** Re-spawns allowed in one run of the app. */
const MAX_CRASHES = 3;

/**
 * The worker's young generation: V8's default lets it grow to tens of MB while an index loads
 * (short-lived line texts), pages the process keeps. The index itself is long-lived, so a small
 * one costs little: 3 × 50,000 entries, worker heap 114 → 85 MB committed, host RSS −30 to −50 MB
 * (bench/hostMemory.ts; docs/PERFORMANCE.md "Host memory (round 4)").
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 8 };

/**
 * The worker's scratch postings files (`filePostings.ts`) are unlinked once opened: their disk
 * space is freed when their descriptors are closed. Descriptors are the process's, shared by its
 * threads; with `trackUnmanagedFds` (Node's default since 14.6, set here because the worker relies
 * on it) Node closes those a worker opened and did not close when it exits, however it died
 * (an uncaught error, `terminate()`, out of memory), exactly once, and none of another thread's
 * (searchWorkerCrash.test.ts).
 */
const WORKER_OPTIONS = { resourceLimits: WORKER_LIMITS, trackUnmanagedFds: true };

/**
 * The built worker is `searchWorker.js` in out/main (an entry of its own, electron.vite.config.ts);
 * run from source (vitest, `npm run bench` through tsx), the worker registers tsx itself.
 */
function startWorker(): Worker {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const tsx = import.meta.resolve('tsx/esm/api');
    const entry = new URL('./searchWorker.ts', here).href;
    const code = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`;
    return new Worker(code, { ...WORKER_OPTIONS, eval: true });
  }
  for (const candidate of ['./searchWorker.js', '../searchWorker.js']) {
    const url = new URL(candidate, here);
    if (existsSync(fileURLToPath(url))) return new Worker(url, WORKER_OPTIONS);
  }
  throw new Error(`The search worker (searchWorker.js) is missing beside ${fileURLToPath(here)}.`);
}
