/**
 * Line hunks between two texts, for keeping or rejecting one change of a file (issue 24's
 * Review panel). Myers' O(ND) diff over lines; each run of changed lines is one hunk (no
 * context merging: Monaco shows the same runs as separate changes). A line keeps its own end
 * (`\n`, `\r\n` or none), so applying a hunk in reverse gives back the old text byte for byte.
 */

export interface LineHunk {
  /** Stable across other hunks being rejected: the hunk's text and which occurrence of it. */
  key: string;
  /** 0-based index of the first old line. */
  oldStart: number;
  oldLines: string[];
  /** 0-based index of the first new line. */
  newStart: number;
  newLines: string[];
}

/** Splits a text into lines, each with its line end. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines: string[] = [];
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      lines.push(text.slice(from, i + 1));
      from = i + 1;
    }
  }
  if (from < text.length) lines.push(text.slice(from));
  return lines;
}

/**
 * Beyond this many edited lines the diff gives up finding the shortest script: one hunk for the
 * changed middle. The walk back keeps each round's frontier (2d + 1 numbers in round d), so this
 * bounds its memory to about MAX_EDITS² numbers (4 MB).
 */
const MAX_EDITS = 1000;

/** The hunks that turn `oldText` into `newText`, in file order. */
export function lineHunks(oldText: string, newText: string): LineHunk[] {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const runs = middleRuns(a.slice(start, endA), b.slice(start, endB)).map((run) => ({
    oldStart: run.oldStart + start,
    oldEnd: run.oldEnd + start,
    newStart: run.newStart + start,
    newEnd: run.newEnd + start,
  }));
  const seen = new Map<string, number>();
  return runs.map((run) => {
    const oldLines = a.slice(run.oldStart, run.oldEnd);
    const newLines = b.slice(run.newStart, run.newEnd);
    const body = hash(`${oldLines.join('')}\u0000${newLines.join('')}`);
    const occurrence = seen.get(body) ?? 0;
    seen.set(body, occurrence + 1);
    return { key: `${body}-${occurrence}`, oldStart: run.oldStart, oldLines, newStart: run.newStart, newLines };
  });
}

/** `newText` with one hunk put back to its old lines. */
export function revertHunk(newText: string, hunk: LineHunk): string {
  const lines = splitLines(newText);
  const current = lines.slice(hunk.newStart, hunk.newStart + hunk.newLines.length);
  if (current.join('') !== hunk.newLines.join('')) throw new Error('The hunk is not where it was.');
  lines.splice(hunk.newStart, hunk.newLines.length, ...hunk.oldLines);
  return lines.join('');
}

interface Run {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

/** Myers' greedy forward search, keeping each round's frontier to walk the path back. */
function middleRuns(a: string[], b: string[]): Run[] {
  const n = a.length;
  const m = b.length;
  if (n === 0 && m === 0) return [];
  if (n === 0 || m === 0) return [{ oldStart: 0, oldEnd: n, newStart: 0, newEnd: m }];
  const max = Math.min(n + m, MAX_EDITS);
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  /** Round d's frontier before its moves, diagonals -d..d (index k + d). */
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    trace.push(v.slice(offset - d, offset + d + 1));
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
    v = next;
  }
  if (found < 0) return [{ oldStart: 0, oldEnd: n, newStart: 0, newEnd: m }];
  // Walk back: which lines are shared (a snake), the rest are edits.
  const shared: [number, number][] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const prev = trace[d];
    const at = (diagonal: number) => prev[diagonal + d];
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX + (down ? 0 : 1) && y > prevY + (down ? 1 : 0)) {
      shared.push([x - 1, y - 1]);
      x--;
      y--;
    }
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    shared.push([x - 1, y - 1]);
    x--;
    y--;
  }
  shared.reverse();
  const runs: Run[] = [];
  let ai = 0;
  let bi = 0;
  for (const [sa, sb] of [...shared, [n, m] as [number, number]]) {
    if (sa > ai || sb > bi) runs.push({ oldStart: ai, oldEnd: sa, newStart: bi, newEnd: sb });
    ai = sa + 1;
    bi = sb + 1;
  }
  return runs;
}

/** FNV-1a over UTF-16 units, as hex: a short key, not a security measure. */
export function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
