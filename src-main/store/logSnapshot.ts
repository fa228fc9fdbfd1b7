import { createReadStream, existsSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { SessionEvent } from '../../src-shared/session/events';
import { countUnreported, damageClaim, type DamageClaim, type LineRange, toRanges } from './eventLog';
import { validEvent } from './eventSchema';
import { writeLinesAtomic } from './jsonFile';
import { logDebug } from '../log/mainLog';

/**
 * A fold over a session's events: any reducer and the state it builds. The snapshot code knows
 * nothing of the events' shapes, so a new event model changes `reduce` and `version`, not this.
 */
export interface LogFold<S> {
  /** Names the reducer and its state's shape: a snapshot made with another version is rebuilt. */
  version: string;
  reduce(state: S | undefined, events: SessionEvent[]): S;
  /**
   * The state's long list (a session's transcript entries): saved as lines of a few hundred items
   * after the snapshot's first line, and read back line by line, so neither writing nor reading
   * a snapshot holds its whole text, or its text and its parse at once. Without it the state is
   * saved whole in the first line.
   */
  items?: {
    of(state: S): readonly unknown[];
    /** The state with `items` as its list (with `[]`: what the first line holds). */
    with(state: S, items: unknown[]): S;
  };
}

/** Where each event's line starts in the log, by seq (the log's own numbering, not line numbers). */
export class LogOffsets {
  constructor(
    /** Seq of each event line read, in log order. */
    readonly seqs: number[] = [],
    /** Byte offset of each of those lines. */
    readonly starts: number[] = [],
  ) {}

  add(seq: number, start: number): void {
    this.seqs.push(seq);
    this.starts.push(start);
  }

  get length(): number {
    return this.seqs.length;
  }

  /** Byte offset of the first event with a seq ≥ `seq` (undefined: none, or not known). */
  startOf(seq: number): number | undefined {
    // Seqs grow along the log; a binary search finds the first line at or past `seq`.
    let low = 0;
    let high = this.seqs.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.seqs[mid] < seq) low = mid + 1;
      else high = mid;
    }
    return low < this.starts.length ? this.starts[low] : undefined;
  }

  /** Delta-encoded for the file: small numbers, a fraction of the JSON of the absolute ones. */
  encode(): { seqs: number[]; starts: number[] } {
    const delta = (values: number[]) => values.map((value, i) => (i === 0 ? value : value - values[i - 1]));
    return { seqs: delta(this.seqs), starts: delta(this.starts) };
  }

  static decode(encoded: { seqs: number[]; starts: number[] }): LogOffsets {
    const sum = (deltas: number[]) => {
      const out = new Array<number>(deltas.length);
      let total = 0;
      for (let i = 0; i < deltas.length; i++) out[i] = total += deltas[i];
      return out;
    };
    if (!Array.isArray(encoded?.seqs) || !Array.isArray(encoded?.starts) || encoded.seqs.length !== encoded.starts.length) throw new Error('bad offsets');
    return new LogOffsets(sum(encoded.seqs), sum(encoded.starts));
  }
}

/** What folding a log gives: the state, where each event is, and the log's damage. */
export interface FoldedLog<S> {
  state: S | undefined;
  /** Seq of the last event folded (0: none). */
  lastSeq: number;
  /** Bytes of the log covered: up to the end of its last complete line. */
  logSize: number;
  offsets: LogOffsets;
  /** Lines that could not be used (not JSON, or not an event). */
  skipped: number;
  /** Skipped lines that no damage notice in the log names (eventLog.ts `countUnreported`). */
  unreported: number;
  /** Where the skipped lines are, as 1-based inclusive line ranges of the file. */
  damaged: LineRange[];
  /** Lines of the file covered by `logSize` (blank ones included), so line numbers go on after a snapshot. */
  lines: number;
  /** 1-based line numbers of the skipped lines, ascending. */
  damagedLines: number[];
  /** What the damage notices read so far say they reported. */
  claims: DamageClaim[];
  /** How the state was reached: a snapshot plus the log after it, or the whole log. */
  from: 'snapshot' | 'log';
  /** Event lines parsed to get here (a snapshot's own are not counted): the work it cost. */
  eventsParsed: number;
  /** 1 when the log ends in a torn line (counted in `skipped`, outside `logSize`). */
  tornTail: number;
}

interface SnapshotFile<S> {
  version: string;
  /** How many list items follow the first line (`LogFold.items`). */
  items: number;
  lastSeq: number;
  logSize: number;
  skipped: number;
  lines: number;
  damagedLines: number[];
  claims: DamageClaim[];
  offsets: { seqs: number[]; starts: number[] };
  state: S;
}

/** Bumped when the snapshot file's own layout changes (the fold's version covers its state). */
// 3: a first line, then the state's list items in lines of ITEMS_PER_LINE (was one JSON value).
const FILE_VERSION = 3;
const ITEMS_PER_LINE = 500;

/** The snapshot beside a log: `sessions/<id>.snapshot.json` for `sessions/<id>.jsonl`. */
export function snapshotFile(logFile: string): string {
  return `${logFile.replace(/\.jsonl$/, '')}.snapshot.json`;
}

/** Removes a log's snapshot (the log is deleted, or the snapshot is known to be wrong). */
export function removeSnapshot(logFile: string): void {
  rmSync(snapshotFile(logFile), { force: true });
}

/**
 * Folds a log, starting from its snapshot when one fits: same version, and the log still has,
 * at the snapshot's end, the very event it ended with (so a replaced, cut or rewritten log is
 * never mistaken for the one the snapshot was made from). Then only the lines after it are read.
 * A missing, stale, unreadable or foreign snapshot means a fold of the whole log: the log is the
 * only truth, and a snapshot only saves time.
 */
export async function foldLogFile<S>(logFile: string, fold: LogFold<S>, onBatch?: (state: S) => void): Promise<FoldedLog<S>> {
  const snapshot = await readSnapshot(logFile, fold);
  const start: FoldedLog<S> = snapshot
    ? {
        state: snapshot.state,
        lastSeq: snapshot.lastSeq,
        logSize: snapshot.logSize,
        offsets: LogOffsets.decode(snapshot.offsets),
        skipped: snapshot.skipped,
        unreported: 0,
        damaged: [],
        lines: snapshot.lines,
        damagedLines: snapshot.damagedLines,
        claims: snapshot.claims,
        from: 'snapshot',
        eventsParsed: 0,
        tornTail: 0,
      }
    : {
        state: undefined,
        lastSeq: 0,
        logSize: 0,
        offsets: new LogOffsets(),
        skipped: 0,
        unreported: 0,
        damaged: [],
        lines: 0,
        damagedLines: [],
        claims: [],
        from: 'log',
        eventsParsed: 0,
        tornTail: 0,
      };
  return readFrom(logFile, fold, start, onBatch);
}

/** Saves the folded state beside the log (atomically; a failure only costs the next open time). */
export function saveSnapshot<S>(logFile: string, fold: LogFold<S>, folded: FoldedLog<S>): void {
  if (folded.state === undefined) return;
  const items = fold.items?.of(folded.state) ?? [];
  const file: SnapshotFile<S> & { fileVersion: number } = {
    fileVersion: FILE_VERSION,
    version: fold.version,
    items: items.length,
    lastSeq: folded.lastSeq,
    logSize: folded.logSize,
    // A torn last line lies past `logSize`: the next read counts it (ended by then, or not).
    skipped: folded.skipped - folded.tornTail,
    lines: folded.lines,
    damagedLines: folded.tornTail ? folded.damagedLines.slice(0, -1) : folded.damagedLines,
    claims: folded.claims,
    offsets: folded.offsets.encode(),
    state: fold.items ? fold.items.with(folded.state, []) : folded.state,
  };
  function* lines(): Generator<string> {
    yield JSON.stringify(file);
    for (let at = 0; at < items.length; at += ITEMS_PER_LINE) yield JSON.stringify(items.slice(at, at + ITEMS_PER_LINE));
  }
  try {
    writeLinesAtomic(snapshotFile(logFile), lines());
  } catch (error) {
    logDebug(`Saving the snapshot of ${logFile} (the next open folds more of the log)`, error);
  }
}

/** A snapshot's first line: its versions, where it ends in the log, and the state without its list (tests read it). */
export async function readSnapshotHead(file: string): Promise<SnapshotFile<unknown> & { fileVersion?: number }> {
  const lines = snapshotLines(file);
  try {
    const first = await lines.next();
    return JSON.parse(first.done ? '' : first.value) as SnapshotFile<unknown> & { fileVersion?: number };
  } finally {
    await lines.return?.();
  }
}

function snapshotLines(file: string): AsyncIterator<string> & { return?(): Promise<IteratorResult<string>> } {
  const stream = createReadStream(file, { encoding: 'utf8' });
  const reader = createInterface({ input: stream, crlfDelay: Infinity });
  const lines = reader[Symbol.asyncIterator]();
  return {
    next: () => lines.next(),
    return: async () => {
      reader.close();
      stream.destroy();
      return { done: true, value: undefined };
    },
  };
}

async function readSnapshot<S>(logFile: string, fold: LogFold<S>): Promise<SnapshotFile<S> | null> {
  const file = snapshotFile(logFile);
  const lines = snapshotLines(file);
  try {
    const first = await lines.next();
    const snapshot = JSON.parse(first.done ? '' : first.value) as SnapshotFile<S> & { fileVersion?: number };
    if (snapshot.fileVersion !== FILE_VERSION || snapshot.version !== fold.version || !snapshot.state || !snapshot.offsets) return null;
    if (!Array.isArray(snapshot.damagedLines) || !Array.isArray(snapshot.claims) || typeof snapshot.lines !== 'number') return null;
    if (!Number.isInteger(snapshot.items) || (snapshot.items > 0 && !fold.items)) return null;
    if (!(await endsWith(logFile, snapshot))) {
      logDebug(`The snapshot ${file} does not match its log (replaced or cut): the log is folded whole`);
      return null;
    }
    if (!fold.items) return snapshot;
    // The list, a line at a time: only one line's text is held besides what is parsed so far.
    const items: unknown[] = [];
    while (items.length < snapshot.items) {
      const line = await lines.next();
      if (line.done) throw new Error(`${items.length} of ${snapshot.items} items`);
      const slice = JSON.parse(line.value) as unknown;
      if (!Array.isArray(slice)) throw new Error('a line of items is not a list');
      for (const item of slice) items.push(item);
    }
    if (items.length !== snapshot.items) throw new Error(`${items.length} items, ${snapshot.items} announced`);
    return { ...snapshot, state: fold.items.with(snapshot.state, items) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') logDebug(`The snapshot ${file} is unreadable: the log is folded whole`, error);
    return null;
  } finally {
    await lines.return?.();
  }
}

/** Whether the log's bytes just before `logSize` are a whole line holding the event `lastSeq`. */
async function endsWith(logFile: string, snapshot: SnapshotFile<unknown>): Promise<boolean> {
  try {
    if (statSync(logFile).size < snapshot.logSize) return false;
    const starts = snapshot.offsets.starts;
    let lastStart = 0;
    for (const delta of starts) lastStart += delta;
    if (starts.length === 0 || lastStart >= snapshot.logSize) return false;
    const handle = await open(logFile, 'r');
    try {
      const buffer = Buffer.alloc(snapshot.logSize - lastStart);
      await handle.read(buffer, 0, buffer.length, lastStart);
      if (buffer[buffer.length - 1] !== 0x0a) return false;
      const event = validEvent(JSON.parse(buffer.toString('utf8')));
      return event?.seq === snapshot.lastSeq;
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}

/** Adaptive batches, as readEventLog: 1,000 events, doubling to 16,384. */
const FIRST_BATCH = 1000;
const MAX_BATCH = 16_384;

/** Reads whole lines from `from.logSize` on, folding them onto `from.state`. */
async function readFrom<S>(logFile: string, fold: LogFold<S>, from: FoldedLog<S>, onBatch?: (state: S) => void): Promise<FoldedLog<S>> {
  const out = { ...from, damagedLines: [...from.damagedLines], claims: [...from.claims] };
  const finish = () => {
    out.unreported = countUnreported(out.damagedLines, out.claims);
    out.damaged = toRanges(out.damagedLines);
    return out;
  };
  if (!existsSync(logFile)) return finish();
  let limit = FIRST_BATCH;
  let batch: SessionEvent[] = [];
  const flush = () => {
    if (!batch.length) return;
    out.state = fold.reduce(out.state, batch);
    out.lastSeq = batch[batch.length - 1].seq;
    batch = [];
    limit = Math.min(limit * 2, MAX_BATCH);
    if (onBatch) onBatch(out.state);
  };
  let offset = from.logSize;
  let rest: Buffer | null = null;
  for await (const chunk of createReadStream(logFile, { start: from.logSize })) {
    let data = chunk as Buffer;
    if (rest) {
      data = Buffer.concat([rest, data]);
      rest = null;
    }
    let lineStart = 0;
    for (;;) {
      const newline = data.indexOf(0x0a, lineStart);
      if (newline === -1) break;
      const start = offset + lineStart;
      const text = data.toString('utf8', lineStart, newline);
      lineStart = newline + 1;
      out.logSize = offset + lineStart;
      out.lines++;
      if (!text.trim()) continue;
      let event: SessionEvent | null = null;
      try {
        event = validEvent(JSON.parse(text));
      } catch {
        event = null;
      }
      if (!event) {
        out.skipped++;
        out.damagedLines.push(out.lines);
        continue;
      }
      out.eventsParsed++;
      const claim = damageClaim(event);
      if (claim) out.claims.push(claim);
      out.offsets.add(event.seq, start);
      batch.push(event);
      if (batch.length >= limit) flush();
    }
    offset += lineStart;
    if (lineStart < data.length) rest = data.subarray(lineStart);
  }
  // A last line without its newline is torn (a crash mid-write): skipped, and left outside
  // `logSize`, so the next read sees it again once a later write has ended it.
  if (rest && rest.toString('utf8').trim()) {
    out.skipped++;
    out.damagedLines.push(out.lines + 1);
    out.tornTail = 1;
  }
  flush();
  return finish();
}
