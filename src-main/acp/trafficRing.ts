import type { TrafficDirection } from '../../src-shared/inspector/traffic';

/** One line as it crossed the stream boundary; decoded only when the inspector asks. */
export interface TrafficEntry {
  seq: number;
  t: number;
  dir: TrafficDirection;
  line: string;
}

/**
 * An agent's recent JSON-RPC traffic, both ways, for the protocol inspector: a ring buffer of
 * raw lines bounded by count and by characters. It lives as long as the app knows the agent,
 * across restarts. `push` runs on the hot path (every streamed chunk), so it stores the line
 * as it came with a time and a direction and does nothing else; decoding and redaction happen
 * when a window is read (src-shared/inspector/traffic.ts).
 */
export class TrafficRing {
  private entries: (TrafficEntry | undefined)[];
  private head = 0;
  private count = 0;
  private chars = 0;
  private nextSeq = 1;
  /** Rows dropped to stay within the bounds. */
  dropped = 0;
  /** Called (once) after a push while someone watches; cleared by the watcher when it reads. */
  private wake: (() => void) | null = null;

  constructor(
    readonly capacity = 5000,
    private readonly maxChars = 16 * 1024 * 1024,
    private readonly now: () => number = Date.now,
  ) {
    this.entries = new Array<TrafficEntry | undefined>(capacity);
  }

  push(dir: TrafficDirection, line: string): void {
    if (this.count === this.capacity) this.evict();
    const index = (this.head + this.count) % this.capacity;
    this.entries[index] = { seq: this.nextSeq++, t: this.now(), dir, line };
    this.count++;
    this.chars += line.length;
    while (this.chars > this.maxChars && this.count > 1) this.evict();
    if (this.wake) {
      const wake = this.wake;
      this.wake = null;
      wake();
    }
  }

  private evict(): void {
    const entry = this.entries[this.head];
    this.entries[this.head] = undefined;
    this.head = (this.head + 1) % this.capacity;
    this.count--;
    this.dropped++;
    if (entry) this.chars -= entry.line.length;
  }

  /** The seq the next push gets. */
  get next(): number {
    return this.nextSeq;
  }

  /** The newest `limit` entries with `seq` in [afterSeq + 1, beforeSeq), oldest first. */
  window(options: { afterSeq?: number; beforeSeq?: number; limit?: number } = {}): TrafficEntry[] {
    const after = options.afterSeq ?? 0;
    const before = options.beforeSeq ?? Infinity;
    const limit = options.limit ?? this.capacity;
    const out: TrafficEntry[] = [];
    for (let i = this.count - 1; i >= 0 && out.length < limit; i--) {
      const entry = this.entries[(this.head + i) % this.capacity]!;
      if (entry.seq <= after) break;
      if (entry.seq < before) out.push(entry);
    }
    return out.reverse();
  }

  /** Calls `wake` once, after the next push. */
  watch(wake: () => void): void {
    this.wake = wake;
  }

  unwatch(): void {
    this.wake = null;
  }
}
