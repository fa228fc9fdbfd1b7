import { appendFileSync, closeSync, createReadStream, existsSync, fsyncSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import type { SessionEvent } from '../../src-shared/session/events';

/**
 * A session's append-only event log: one JSON event per line.
 *
 * Appends are synchronous and happen before the same events are sent to the window, so
 * whatever was on screen is already in the OS's hands when a crash or `kill -9` comes; at
 * most a torn last line can be lost, and the reader skips it.
 */
export class EventLog {
  private fd: number | null = null;

  constructor(readonly file: string) {}

  append(events: readonly SessionEvent[]): void {
    if (events.length === 0) return;
    if (this.fd === null) {
      mkdirSync(dirname(this.file), { recursive: true });
      this.fd = openSync(this.file, 'a');
      this.repairTornTail();
    }
    let text = '';
    for (const event of events) text += JSON.stringify(event) + '\n';
    appendFileSync(this.fd, text);
  }

  /** If the previous run died mid-line, start our first line on a fresh line. */
  private repairTornTail(): void {
    // A torn line is followed by our newline so it stays one (skipped) line, never glued to ours.
    try {
      const { size } = statSync(this.file);
      if (size === 0) return;
      const buffer = Buffer.alloc(1);
      const fd = openSync(this.file, 'r');
      try {
        readSync(fd, buffer, 0, 1, size - 1);
      } finally {
        closeSync(fd);
      }
      if (buffer[0] !== 0x0a && this.fd !== null) appendFileSync(this.fd, '\n');
    } catch {
      /* a new file */
    }
  }

  /** Makes the log durable against power loss (not needed for process crashes). */
  sync(): void {
    if (this.fd !== null) fsyncSync(this.fd);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}


export interface ReadResult {
  events: SessionEvent[];
  /** Lines that could not be parsed (a torn last line after a crash, or damage). */
  skipped: number;
}

/**
 * Streams a log line by line (never the whole file in memory as one string) and hands the
 * events on in batches, so a 10,000-entry session is folded while it is being read.
 */
export async function readEventLog(
  file: string,
  onBatch?: (events: SessionEvent[]) => void,
  batchSize = 1000,
): Promise<ReadResult> {
  const all: SessionEvent[] = [];
  let skipped = 0;
  if (!existsSync(file)) return { events: all, skipped };
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let batch: SessionEvent[] = [];
  for await (const line of lines) {
    if (!line.trim()) continue;
    try {
      const event = JSON.parse(line) as SessionEvent;
      if (typeof event !== 'object' || event === null || typeof event.seq !== 'number' || typeof event.kind !== 'string') {
        skipped++;
        continue;
      }
      if (onBatch) {
        batch.push(event);
        if (batch.length >= batchSize) {
          onBatch(batch);
          batch = [];
        }
      } else {
        all.push(event);
      }
    } catch {
      skipped++;
    }
  }
  if (onBatch && batch.length) onBatch(batch);
  return { events: all, skipped };
}
