import { appendFileSync, closeSync, createReadStream, existsSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import type { SessionEvent } from '../../src-shared/session/events';
import { validEvent } from './eventSchema';
import { logDebug, logUnlessMissing } from '../log/mainLog';

/** Whether a log is being saved; reported when it changes (see EventLog's `onHealth`). */
export type LogHealth = { saving: false; error: string } | { saving: true; written: number };

/** The file system calls the log writes with; a test swaps them to inject a full disk. */
export const logIo = {
  append: (fd: number, text: string): void => appendFileSync(fd, text),
};

function describeWriteError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'ENOSPC') return 'the disk is full';
  if (code === 'EDQUOT') return 'the disk quota is used up';
  if (code === 'EROFS') return 'the disk is read-only';
  if (code === 'EACCES' || code === 'EPERM') return 'the log file may not be written';
  return (error as Error)?.message ?? String(error);
}

/** The session notice for a change of a log's health. */
export function saveNotice(health: LogHealth): { kind: 'notice'; level: 'error' | 'info'; message: string } {
  if (!health.saving) {
    return {
      kind: 'notice',
      level: 'error',
      message: `This session is not being saved: ${health.error}. Everything stays on screen and in memory, and is saved as soon as space is available again; do not quit the app until then.`,
    };
  }
  return { kind: 'notice', level: 'info', message: `This session is being saved again (${health.written} held-back event(s) written).` };
}

/**
 * A session's append-only event log: one JSON event per line.
 *
 * Appends are synchronous and happen before the same events are sent to the window, so
 * whatever was on screen is already in the OS's hands when a crash or `kill -9` comes; at
 * most a torn last line can be lost, and the reader skips it.
 *
 * A write that fails (a full disk) never throws: the events are held in memory, in order, a
 * partial write is cut back off so what was saved before stays intact, `onHealth` says the
 * session is not being saved, and the write is retried every `retryMs` and with every append.
 */
export class EventLog {
  private fd: number | null = null;
  /** Text not written yet (only while writes fail), oldest first. */
  private held: string[] = [];
  private heldEvents = 0;
  private failure: string | null = null;
  private retry: ReturnType<typeof setTimeout> | null = null;

  constructor(
    readonly file: string,
    private readonly onHealth?: (health: LogHealth) => void,
    private readonly retryMs = 2000,
  ) {}

  /** False while writes fail and events are held in memory. */
  get saving(): boolean {
    return this.failure === null;
  }

  append(events: readonly SessionEvent[]): void {
    if (events.length === 0) return;
    let text = '';
    for (const event of events) text += JSON.stringify(event) + '\n';
    this.held.push(text);
    this.heldEvents += events.length;
    this.writeHeld();
  }

  private writeHeld(): void {
    if (this.held.length === 0) return;
    const text = this.held.length === 1 ? this.held[0] : this.held.join('');
    try {
      if (this.fd === null) {
        mkdirSync(dirname(this.file), { recursive: true });
        this.fd = openSync(this.file, 'a');
        this.repairTornTail();
      }
      const before = fstatSync(this.fd).size;
      try {
        logIo.append(this.fd, text);
      } catch (error) {
        // Part of the text may be on disk: cut it off, so the retry writes whole lines once.
        try {
          ftruncateSync(this.fd, before);
        } catch (truncateError) {
          logDebug(`Cutting a torn line off ${this.file} (it is skipped on read)`, truncateError);
        }
        throw error;
      }
    } catch (error) {
      this.held = [text];
      const wasSaving = this.failure === null;
      this.failure = describeWriteError(error);
      if (wasSaving) this.onHealth?.({ saving: false, error: this.failure });
      this.retry ??= setTimeout(() => {
        this.retry = null;
        this.writeHeld();
      }, this.retryMs);
      this.retry.unref?.();
      return;
    }
    const written = this.heldEvents;
    this.held = [];
    this.heldEvents = 0;
    if (this.failure !== null) {
      this.failure = null;
      if (this.retry) clearTimeout(this.retry);
      this.retry = null;
      this.onHealth?.({ saving: true, written });
    }
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
      if (buffer[0] !== 0x0a && this.fd !== null) logIo.append(this.fd, '\n');
    } catch (error) {
      logUnlessMissing(`Checking the end of ${this.file} (missing: a new log)`, error);
    }
  }

  /** Makes the log durable against power loss (not needed for process crashes). */
  sync(): void {
    try {
      if (this.fd !== null) fsyncSync(this.fd);
    } catch (error) {
      // The next append reports a disk in trouble to the person.
      logDebug(`Syncing ${this.file}`, error);
    }
  }

  /** Closes the file after a last try to write what is held back. */
  close(): void {
    this.writeHeld();
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
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

export function isDamageNotice(event: SessionEvent): boolean {
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
export async function readEventLog(file: string, onBatch?: (events: SessionEvent[]) => void, batchSize = 0): Promise<ReadResult> {
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
