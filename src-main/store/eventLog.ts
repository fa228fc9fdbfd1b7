import { appendFileSync, closeSync, createReadStream, existsSync, fsyncSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import type { SessionEvent } from '../../src-shared/session/events';
import { validEvent } from './eventSchema';

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
  /** Lines that could not be used: not JSON (a torn last line after a crash) or not an event. */
  skipped: number;
  /** Skipped lines after the last damage notice in the log: the ones nobody was told about yet. */
  unreported: number;
}

const DAMAGE_NOTICE = "damaged line(s) in this session's log were skipped";

/** The notice recorded for damaged lines; reading it back marks the damage before it as reported. */
export function damageNotice(count: number): { kind: 'notice'; level: 'warning'; message: string } {
  return { kind: 'notice', level: 'warning', message: `${count} ${DAMAGE_NOTICE} (usually the last line written before a crash).` };
}

function isDamageNotice(event: SessionEvent): boolean {
  return event.kind === 'notice' && event.message.includes(DAMAGE_NOTICE);
}

/** Adaptive batches start here and double up to MAX_BATCH (see readEventLog). */
const FIRST_BATCH = 1000;
const MAX_BATCH = 16_384;

/**
 * Streams a log line by line (never the whole file in memory as one string) and hands the
 * events on in batches, so a 10,000-entry session is folded while it is being read.
 *
 * `batchSize` 0 (the default) means adaptive: 1,000 events, doubling to 16,384. Each fold
 * step copies the entry list once, so fixed small batches make opening a very long session
 * cost entries × batches (bench/openSession: 100,000 entries took 1.7 s with 1,000-event
 * batches, 0.8 s adaptive) while memory stays bounded by the largest batch.
 */
export async function readEventLog(
  file: string,
  onBatch?: (events: SessionEvent[]) => void,
  batchSize = 0,
): Promise<ReadResult> {
  let limit = batchSize > 0 ? batchSize : FIRST_BATCH;
  const all: SessionEvent[] = [];
  let skipped = 0;
  let unreported = 0;
  if (!existsSync(file)) return { events: all, skipped, unreported };
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let batch: SessionEvent[] = [];
  for await (const line of lines) {
    if (!line.trim()) continue;
    try {
      // Valid JSON of the wrong shape is skipped like a torn line (the fold would throw on it).
      const event = validEvent(JSON.parse(line));
      if (!event) {
        skipped++;
        unreported++;
        continue;
      }
      if (isDamageNotice(event)) unreported = 0;
      if (onBatch) {
        batch.push(event);
        if (batch.length >= limit) {
          onBatch(batch);
          batch = [];
          if (batchSize <= 0) limit = Math.min(limit * 2, MAX_BATCH);
        }
      } else {
        all.push(event);
      }
    } catch {
      skipped++;
      unreported++;
    }
  }
  if (onBatch && batch.length) onBatch(batch);
  return { events: all, skipped, unreported };
}
