import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { logDebug } from '../log/mainLog';

export interface QuietCompactionOptions {
  /** How long the host must have done nothing of note before the collection runs. */
  quietMs?: number;
  /** The young generation is held at its size at most this long after a read ends, quiet or not. */
  maxHoldMs?: number;
  /** Heap growth since the last collection below which one is not worth its pause. */
  minGrowthBytes?: number;
  /** A full garbage collection (tests pass a counter); null: none available. */
  collect?: (() => void) | null;
  /** Sets how much V8's young generation may grow at a scavenge (tests pass a recorder). */
  youngGrowth?: (factor: number) => void;
  /** V8's heap in use, bytes. */
  heapUsed?: () => number;
  now?: () => number;
}

/** V8's default `--semi-space-growth-factor` (Node 20's V8 11.3 and later). */
export const DEFAULT_YOUNG_GROWTH = 2;

/**
 * What reading long sessions back leaves in the host's memory, given back once the host is quiet
 * (issue 23, host memory). Opening three 50,000-entry sessions (snapshots, the logs' tails, the
 * first answers) made V8 grow its young generation from 8 to 32 MB and left ~20 MB of garbage in
 * the old one, pages it keeps committed until its memory reducer runs, which it does only after a
 * later full collection with the heap idle: measured, 20 s after the opening and more. So:
 *
 * - from the first read until the host is quiet (at most `maxHoldMs` after the last read), the
 *   young generation does not grow (`--semi-space-growth-factor=1`, read by V8 at each growth;
 *   the default again after): what a restore keeps ends in the old generation anyway;
 * - one full collection when the saved tabs are back (`settle`, before the page is told the last
 *   one is), or, for a session read back later, once the host has been quiet for `quietMs`
 *   (events recorded and requests answered push it back): its pause (53 ms for three
 *   50,000-entry sessions read from their snapshots on this machine, loaded; 269 ms when their
 *   whole logs were folded) lands inside the start or when nobody waits.
 */
export class QuietCompaction {
  private readonly quietMs: number;
  private readonly maxHoldMs: number;
  private readonly minGrowthBytes: number;
  private readonly collect: () => (() => void) | null;
  private readonly youngGrowth: (factor: number) => void;
  private readonly heapUsed: () => number;
  private readonly now: () => number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastActivity = 0;
  private lastReadEnd = 0;
  private reading = 0;
  private holding = false;
  private usedAfterLast: number;
  /** How long the last one stopped the host, ms. */
  lastPauseMs = 0;

  constructor(options: QuietCompactionOptions = {}) {
    this.quietMs = options.quietMs ?? 1000;
    this.maxHoldMs = options.maxHoldMs ?? 5000;
    this.minGrowthBytes = options.minGrowthBytes ?? 16 * 1024 * 1024;
    this.heapUsed = options.heapUsed ?? (() => getHeapStatistics().used_heap_size);
    this.now = options.now ?? (() => performance.now());
    this.collect = options.collect !== undefined ? () => options.collect ?? null : fullCollection;
    this.youngGrowth = options.youngGrowth ?? setYoungGrowth;
    this.usedAfterLast = this.heapUsed();
  }

  /** A session is being read back: call the returned function when it is (once; a failure too). */
  read(): () => void {
    this.reading++;
    this.hold(true);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.reading--;
      this.lastActivity = this.lastReadEnd = this.now();
      if (!this.timer) this.arm(this.quietMs);
    };
  }

  /**
   * The burst is over (the saved tabs are back): collect now rather than after a quiet second, so
   * the pause lands inside the start, before the page is told the last tab is back, and not
   * under the person's first clicks. Nothing when a read is still running (it arms the timer).
   */
  settle(): void {
    if (this.reading > 0) return;
    this.collectIfWorth();
    // The young generation stays held until the host is quiet (the page's first requests follow).
    if (this.holding && !this.timer) this.arm(this.quietMs);
  }

  /** The host is working (events recorded, a request answered): a pending collection waits. */
  busy(): void {
    this.lastActivity = this.now();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.hold(false);
  }

  private hold(on: boolean): void {
    if (this.holding === on) return;
    this.holding = on;
    this.youngGrowth(on ? 1 : DEFAULT_YOUNG_GROWTH);
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => this.fire(), ms);
    // Never what keeps a process (a test, a host that is stopping) alive.
    this.timer.unref?.();
  }

  private fire(): void {
    this.timer = undefined;
    if (this.reading > 0) return; // the read still running arms it again when it ends
    const now = this.now();
    // A host that stays busy (an agent streaming) gets its young generation's growth back.
    if (now - this.lastReadEnd >= this.maxHoldMs) this.hold(false);
    const quietFor = now - this.lastActivity;
    if (quietFor < this.quietMs) return this.arm(Math.min(this.quietMs - quietFor, Math.max(1, this.maxHoldMs - (now - this.lastReadEnd))));
    this.collectIfWorth();
    this.hold(false);
  }

  /** One full collection when the heap grew enough since the last one (the young generation still held: a full collection may grow it too). */
  private collectIfWorth(): void {
    if (this.heapUsed() - this.usedAfterLast < this.minGrowthBytes) return;
    const collect = this.collect();
    if (!collect) return;
    const start = this.now();
    collect();
    this.lastPauseMs = this.now() - start;
    this.usedAfterLast = this.heapUsed();
    logDebug(
      `Collected the garbage of reading sessions back: ${this.lastPauseMs.toFixed(0)} ms, ${(this.usedAfterLast / 1048576).toFixed(0)} MB of heap in use`,
    );
  }
}

/** How much V8's young generation grows at a scavenge that kept much (read at each growth). */
function setYoungGrowth(factor: number): void {
  try {
    setFlagsFromString(`--semi-space-growth-factor=${factor}`);
  } catch (error) {
    logDebug("Setting the young generation's growth", error);
  }
}

let collector: (() => void) | null | undefined;

/**
 * V8's full collection: `gc` where the process was started with `--expose-gc`, else the same
 * function from a context made after turning the flag on (the flag only adds `gc` to contexts
 * created after it is set). Null where neither works.
 */
export function fullCollection(): (() => void) | null {
  if (collector !== undefined) return collector;
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return (collector = exposed as () => void);
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    collector = typeof gc === 'function' ? (gc as () => void) : null;
  } catch (error) {
    logDebug('No full garbage collection available (the host keeps the pages V8 keeps)', error);
    collector = null;
  }
  return collector;
}
