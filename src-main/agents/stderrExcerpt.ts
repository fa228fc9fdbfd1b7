import { shortened } from '../process/agentProcess';

/** What a session event keeps of an agent's stderr: the rest is in the agent's own log. */
export const EXCERPT_LINES = 40;
export const EXCERPT_CHARS = 4096;
/** Room for `… [N characters not kept] …`. */
const MARKER_CHARS = 48;
/** A shortened line shows at least this much of each end, or is left out. */
const MIN_END_CHARS = 80;

/**
 * The last lines of an agent's stderr that fit in `maxLines` lines and `maxChars` characters,
 * for an event that every session of the agent records. The first line that does not fit is
 * kept as its start and its end when there is room.
 */
export function stderrExcerpt(lines: readonly string[], maxLines = EXCERPT_LINES, maxChars = EXCERPT_CHARS): string[] {
  const kept: string[] = [];
  let budget = maxChars;
  for (let i = lines.length - 1; i >= 0 && kept.length < maxLines; i--) {
    const line = lines[i];
    if (line.length <= budget) {
      kept.unshift(line);
      budget -= line.length + 1;
      continue;
    }
    // The line that no longer fits is kept as its start and its end, if there is room for them.
    const end = Math.floor((budget - MARKER_CHARS) / 2);
    if (end >= MIN_END_CHARS || kept.length === 0) {
      kept.unshift(shorten(line, Math.max(0, end)));
    }
    break;
  }
  return kept;
}

/** `line` as `each` characters at each end; what the ring already left out of it is counted too. */
function shorten(line: string, each: number): string {
  const marker = /… \[(\d+) characters not kept\] …/.exec(line);
  const before = marker ? line.slice(0, marker.index) : line;
  const after = marker ? line.slice(marker.index + marker[0].length) : '';
  const whole = marker ? null : line;
  const start = (whole ?? before).slice(0, each);
  const end = whole !== null ? whole.slice(Math.max(each, whole.length - each)) : after.slice(-each);
  const shown = start.length + end.length;
  const total = marker ? before.length + Number(marker[1]) + after.length : line.length;
  return shortened(start, total - shown, end);
}
