import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import type { Redactor } from '../../src-shared/inspector/redact';
import { decodeTrafficLines, type TrafficLine, type TrafficRow } from '../../src-shared/inspector/traffic';

/** How much of the end of a wire log file is read for older traffic (a file may grow without bound). */
const TAIL_BYTES = 8 * 1024 * 1024;

/**
 * The newest `limit` lines of a wire log file (`wireLog.ts`: `{dir, t, at, msg}` per line) before
 * `beforeTime`, as inspector rows: older traffic than the ring buffer holds. Their seq is negative
 * (they have none in the ring); lines written before `at` existed are skipped (no time to order
 * them by). The file is redacted already; the rows are redacted again with today's secrets.
 */
export function recordedTraffic(file: string, redactor: Redactor, beforeTime = Infinity, limit = 2000): TrafficRow[] {
  if (!existsSync(file)) return [];
  const fd = openSync(file, 'r');
  let text: string;
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    text = buffer.toString('utf8');
    // Cut at the first whole line when the read started inside one.
    if (length < size) text = text.slice(text.indexOf('\n') + 1);
  } finally {
    closeSync(fd);
  }
  const lines: TrafficLine[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const entry = JSON.parse(line) as { dir?: unknown; at?: unknown; msg?: unknown };
      if (typeof entry.at !== 'number' || entry.at >= beforeTime) continue;
      lines.push({ seq: 0, t: entry.at, dir: entry.dir === 'client→agent' ? 'out' : 'in', line: JSON.stringify(entry.msg) });
    } catch {
      // A line cut by a crash mid-write: the rest of the file is still read.
      continue;
    }
  }
  const newest = lines.slice(-limit);
  return decodeTrafficLines(
    newest.map((entry, i) => ({ ...entry, seq: -(newest.length - i) })),
    redactor,
  );
}
