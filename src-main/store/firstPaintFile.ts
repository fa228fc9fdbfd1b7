import { closeSync, fstatSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SESSION_ID_PATTERN } from '../../src-shared/ipc/sessionIdPattern';
import { MAX_FIRST_PAINT_CHARS } from '../../src-shared/ipc/limits';
import { writeFileAtomic } from './jsonFile';

/**
 * A session's first paint (issue 23): the rows the page showed at the bottom of its transcript,
 * as HTML, saved beside the log (`sessions/<id>.paint.json`) with the log's last event it shows.
 * The browser host puts it in index.html when that session is the active tab and its log still
 * ends with that very event, so the next load paints the newest entries before its script has
 * run; the app replaces it once its own transcript has rows. Like the snapshot, it only saves
 * time: a missing, stale or unreadable one is simply not shown.
 *
 * Read by `serve` before its core loads: this module uses node's fs and nothing heavier. Read
 * synchronously: small files, and on a loaded machine each of the thread pool's hops waited tens
 * of ms for a core, in front of the page's first bytes (round 8: 14–450 ms for index.html).
 */

const VERSION = 1;
/** Bytes read from a log's end to find its last event; a longer last line reads more. */
const TAIL_CHUNK = 16 * 1024;

export interface Insets {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

type Theme = 'light' | 'dark';

interface PaintFile {
  version: number;
  seq: number;
  ts: number;
  insets: Insets;
  /** The palette the rows were shown in: the page is served in it, so a dark one never flashes light. */
  theme: Theme;
  html: string;
}

/** The first paint's box, for before the page's root, and the palette its rows were shown in. */
interface PagePaint {
  markup: string;
  theme: Theme;
}

/** The first paint beside a log: `sessions/<id>.paint.json` for `sessions/<id>.jsonl`. */
export function paintFile(logFile: string): string {
  return `${logFile.replace(/\.jsonl$/, '')}.paint.json`;
}

/** Removes a log's first paint (the log is deleted: nothing of it stays on disk). */
export function removePaint(logFile: string): void {
  rmSync(paintFile(logFile), { force: true });
}

/** The seq and time of a log's last event, read from its end; null for an empty or unreadable log. */
export function lastEvent(logFile: string): { seq: number; ts: number } | null {
  let fd: number;
  try {
    fd = openSync(logFile, 'r');
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    let tail = Buffer.alloc(0);
    let from = size;
    // Back from the end until a whole last line is in hand (a torn last line has no newline yet
    // after it: the event before it is the last one that was written whole).
    while (from > 0) {
      const length = Math.min(TAIL_CHUNK, from);
      from -= length;
      const chunk = Buffer.alloc(length);
      readSync(fd, chunk, 0, length, from);
      tail = Buffer.concat([chunk, tail]);
      const end = tail.lastIndexOf(0x0a);
      if (end < 0) continue;
      const start = tail.lastIndexOf(0x0a, end - 1);
      if (start < 0 && from > 0) continue;
      try {
        const event = JSON.parse(tail.subarray(start + 1, end).toString('utf8')) as { seq?: unknown; ts?: unknown };
        return typeof event.seq === 'number' && typeof event.ts === 'number' ? { seq: event.seq, ts: event.ts } : null;
      } catch {
        return null;
      }
    }
    return null;
  } finally {
    closeSync(fd);
  }
}

const REFUSED_TAGS = new Set(['script', 'style', 'iframe', 'frame', 'frameset', 'object', 'embed', 'meta', 'link', 'base', 'form', 'template', 'noscript']);
const TAG = /<\/?([A-Za-z][A-Za-z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*\/?>/g;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/**
 * Why a first paint's markup is refused, or null. It came from the page, and goes back into
 * index.html: beside the page's CSP (no inline script) and the `inert` box it is shown in, no
 * element that runs, loads or submits anything and no event-handler attribute is accepted.
 */
export function refusedMarkup(html: string): string | null {
  if (html.length > MAX_FIRST_PAINT_CHARS) return `it is over ${MAX_FIRST_PAINT_CHARS} characters`;
  let tags = 0;
  for (const tag of html.matchAll(TAG)) {
    tags++;
    const name = tag[1].toLowerCase();
    if (REFUSED_TAGS.has(name)) return `it has a <${name}> element`;
    for (const attribute of (tag[2] ?? '').matchAll(ATTRIBUTE)) {
      const attributeName = attribute[1].toLowerCase();
      const value = (attribute[2] ?? attribute[3] ?? attribute[4] ?? '').trim().toLowerCase();
      if (attributeName.startsWith('on') || attributeName === 'srcdoc' || attributeName === 'formaction') return `it has an ${attributeName} attribute`;
      if (value.startsWith('javascript:') || value.startsWith('vbscript:') || value.startsWith('data:text/html'))
        return `an attribute holds a ${value.split(':')[0]}: address`;
    }
  }
  // A "<" that opens no tag the scan understood could hide one from it.
  const opened = html.split('<').length - 1;
  const comments = [...html.matchAll(/<!--[\s\S]*?-->/g)].length;
  if (opened !== tags + comments) return 'it has markup that is not plain elements';
  return null;
}

/**
 * Saves a first paint the page sent for the rows folded to `seq`, if the log still ends at that
 * event (a log that moved on makes it stale at once: not saved).
 */
export async function savePaint(
  logFile: string,
  paint: { seq: number; insets: Insets; theme: Theme; html: string },
): Promise<{ saved: boolean; refused?: string }> {
  const refused = refusedMarkup(paint.html);
  if (refused) return { saved: false, refused };
  const last = lastEvent(logFile);
  if (!last || last.seq !== paint.seq) return { saved: false };
  const file: PaintFile = { version: VERSION, seq: last.seq, ts: last.ts, insets: paint.insets, theme: paint.theme, html: paint.html };
  writeFileAtomic(paintFile(logFile), JSON.stringify(file));
  return { saved: true };
}

/**
 * The first paint to put in index.html now: the active tab's (`sessions/tabs.json`), if its log
 * still ends with the event it was saved at. Null when there is none, or anything does not fit.
 */
export function firstPaintBlock(dataDir: string): PagePaint | null {
  const sessions = join(dataDir, 'sessions');
  try {
    const tabs = JSON.parse(readFileSync(join(sessions, 'tabs.json'), 'utf8')) as { active?: unknown; open?: unknown };
    const active = tabs.active;
    if (typeof active !== 'string' || !SESSION_ID_PATTERN.test(active) || !Array.isArray(tabs.open) || !tabs.open.includes(active)) return null;
    const logFile = join(sessions, `${active}.jsonl`);
    const paint = JSON.parse(readFileSync(paintFile(logFile), 'utf8')) as Partial<PaintFile>;
    if (paint.version !== VERSION || typeof paint.html !== 'string' || !validInsets(paint.insets) || (paint.theme !== 'light' && paint.theme !== 'dark'))
      return null;
    const last = lastEvent(logFile);
    if (!last || last.seq !== paint.seq || last.ts !== paint.ts) return null;
    if (refusedMarkup(paint.html)) return null;
    const { left, top, right, bottom } = paint.insets;
    const box = `left:${left}px;top:${top}px;right:${right}px;bottom:${bottom}px`;
    const markup =
      `<div id="first-paint" aria-hidden="true" inert data-session-id="${active}" style="${box}">` +
      `<div class="transcript first-paint-log"><div class="transcript-inner">${paint.html}</div></div></div>`;
    return { markup, theme: paint.theme };
  } catch {
    return null;
  }
}

function validInsets(insets: unknown): insets is Insets {
  if (!insets || typeof insets !== 'object') return false;
  const values = ['left', 'top', 'right', 'bottom'].map((side) => (insets as Record<string, unknown>)[side]);
  return values.every((value) => typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 100_000);
}
