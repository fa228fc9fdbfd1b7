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
  /** Skipped lines that no damage notice in the log names: the ones nobody was told about yet. */
  unreported: number;
  /** Where the skipped lines are: 1-based line numbers of the file, as inclusive ranges. */
  damaged: LineRange[];
}

/** Inclusive, 1-based line numbers `[first, last]`. */
export type LineRange = [number, number];

const DAMAGE_NOTICE = "damaged line(s) in this session's log were skipped";
/** Past this many ranges a notice lists the first ones and says where the last one ends. */
const LISTED_RANGES = 50;

/**
 * The notice recorded for damaged lines: how many, and where (line numbers of `fileName`).
 * Reading it back marks exactly the lines it names as reported, so damage that appears later,
 * even before it in the log, is reported again; `fresh` is how many were never reported.
 */
export function damageNotice(damaged: readonly LineRange[], fresh: number, fileName: string): { kind: 'notice'; level: 'warning'; message: string } {
  const count = damaged.reduce((sum, [first, last]) => sum + last - first + 1, 0);
  const listed = damaged.slice(0, LISTED_RANGES).map(([first, last]) => (first === last ? `${first}` : `${first}–${last}`));
  const more = damaged.length > LISTED_RANGES ? `, … (${damaged.length} ranges in all, the last ending at line ${damaged.at(-1)![1]})` : '';
  const where = `${count === 1 ? 'line' : 'lines'} ${listed.join(', ')}${more} of ${fileName}`;
  const news = fresh < count ? ` (${fresh} of them not reported before)` : '';
  return { kind: 'notice', level: 'warning', message: `${count} ${DAMAGE_NOTICE}: ${where}${news}. The rest of the session is shown.` };
}

/** What a damage notice says it reported: the ranges it lists, and for a shortened list, how many lines up to which line. */
export interface DamageClaim {
  ranges: LineRange[];
  upTo?: { line: number; count: number };
}

export function damageClaim(event: SessionEvent): DamageClaim | null {
  if (event.kind !== 'notice' || !event.message.includes(DAMAGE_NOTICE)) return null;
  // A notice from before positions were recorded names no line: what it reported is unknown.
  const listed = /skipped: lines? (\d+(?:–\d+)?(?:, \d+(?:–\d+)?)*)/.exec(event.message);
  if (!listed) return { ranges: [] };
  const ranges = listed[1].split(', ').map((range): LineRange => {
    const [first, last = first] = range.split('–').map(Number);
    return [first, last];
  });
  const more = /, … \(\d+ ranges in all, the last ending at line (\d+)\)/.exec(event.message);
  return more ? { ranges, upTo: { line: Number(more[1]), count: Number(/^(\d+)/.exec(event.message)?.[1] ?? -1) } } : { ranges };
}

/** Damaged lines (ascending) that no claim covers. */
export function countUnreported(damaged: readonly number[], claims: readonly DamageClaim[]): number {
  if (damaged.length === 0) return 0;
  const isDamaged = new Set(damaged);
  const lastDamaged = damaged[damaged.length - 1];
  const reported = new Set<number>();
  for (const claim of claims) {
    for (const [first, last] of claim.ranges) for (let line = first; line <= Math.min(last, lastDamaged); line++) if (isDamaged.has(line)) reported.add(line);
    // A shortened list covers every damaged line up to its last one, if their number is still the same.
    if (claim.upTo) {
      const upTo = claim.upTo;
      const before = damaged.filter((line) => line <= upTo.line);
      if (before.length === upTo.count) for (const line of before) reported.add(line);
    }
  }
  return damaged.length - reported.size;
}

export function toRanges(lines: readonly number[]): LineRange[] {
  const ranges: LineRange[] = [];
  for (const line of lines) {
    const last = ranges.at(-1);
    if (last && last[1] === line - 1) last[1] = line;
    else ranges.push([line, line]);
  }
  return ranges;
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
  const damaged: number[] = [];
  const claims: DamageClaim[] = [];
  if (!existsSync(file)) return { events: all, skipped: 0, unreported: 0, damaged: [] };
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let batch: SessionEvent[] = [];
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber++;
    if (!line.trim()) continue;
    try {
      // Valid JSON of the wrong shape is skipped like a torn line (the fold would throw on it).
      const event = validEvent(JSON.parse(line));
      if (!event) {
        damaged.push(lineNumber);
        continue;
      }
      const claim = damageClaim(event);
      if (claim) claims.push(claim);
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
      damaged.push(lineNumber);
    }
  }
  if (onBatch && batch.length) onBatch(batch);
  return { events: all, skipped: damaged.length, unreported: countUnreported(damaged, claims), damaged: toRanges(damaged) };
}
