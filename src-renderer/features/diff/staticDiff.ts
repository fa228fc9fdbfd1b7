/** One line of a static diff: kept (context), added or removed; or a gap (unchanged lines) or more (lines past the limit). */
export type StaticLine = { kind: 'context' | 'added' | 'removed'; text: string } | { kind: 'gap' | 'more'; count: number };

export interface StaticDiffView {
  lines: StaticLine[];
  added: number;
  removed: number;
}

/** Context kept around the changed lines, as Monaco's folded view does. */
const CONTEXT = 3;

function splitLines(text: string): string[] {
  if (!text) return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * A diff cheap enough to show in every transcript row: the common head and tail are cut off and
 * what differs between them is shown as removed then added (no per-line matching inside that
 * span; Monaco computes the real diff when the person opens it). At most `maxLines` lines are
 * returned, so a row costs what it shows, not the size of the file.
 */
export function staticDiff(oldText: string | null, newText: string, maxLines = 40): StaticDiffView {
  const before = splitLines(oldText ?? '');
  const after = splitLines(newText);
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
  const removed = before.slice(head, before.length - tail);
  const added = after.slice(head, after.length - tail);
  const lines: StaticLine[] = [];
  const contextFrom = Math.max(0, head - CONTEXT);
  if (contextFrom > 0) lines.push({ kind: 'gap', count: contextFrom });
  for (let i = contextFrom; i < head; i++) lines.push({ kind: 'context', text: after[i] });
  for (const text of removed) lines.push({ kind: 'removed', text });
  for (const text of added) lines.push({ kind: 'added', text });
  const tailStart = after.length - tail;
  const contextTo = Math.min(after.length, tailStart + CONTEXT);
  for (let i = tailStart; i < contextTo; i++) lines.push({ kind: 'context', text: after[i] });
  if (contextTo < after.length) lines.push({ kind: 'gap', count: after.length - contextTo });
  if (lines.length > maxLines) {
    const hidden = lines.length - maxLines + 1;
    lines.splice(maxLines - 1, lines.length, { kind: 'more', count: hidden });
  }
  return { lines, added: added.length, removed: removed.length };
}

export function basename(path: string): string {
  return path.split(/[\\/]/).pop() || path;
}

export function dirname(path: string): string {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return cut > 0 ? path.slice(0, cut) : '';
}
