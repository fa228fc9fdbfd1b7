import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { firstPaintBlock, lastEvent, paintFile, refusedMarkup, removePaint, savePaint } from './firstPaintFile';

let dataDir: string;
let log: string;
const INSETS = { left: 264, top: 103, right: 0, bottom: 166 };
const ROWS = '<div class="row" data-entry-id="e1" data-index="0"><p>Newest answer</p></div>';

function line(seq: number, extra: Record<string, unknown> = {}): string {
  return `${JSON.stringify({ kind: 'notice', level: 'info', message: `event ${seq}`, ...extra, sessionId: 's_one', seq, ts: 1000 + seq })}\n`;
}

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'acp-first-paint-'));
  mkdirSync(join(dataDir, 'sessions'));
  log = join(dataDir, 'sessions', 's_one.jsonl');
  writeFileSync(log, line(1) + line(2) + line(3));
  writeFileSync(join(dataDir, 'sessions', 'tabs.json'), JSON.stringify({ open: ['s_one'], active: 's_one' }));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe('a session’s first paint beside its log', () => {
  it('is served while the log still ends with the event it was saved at, in the palette it was shown in', async () => {
    expect(await savePaint(log, { seq: 3, insets: INSETS, theme: 'dark', html: ROWS })).toEqual({ saved: true });
    const paint = await firstPaintBlock(dataDir);
    expect(paint?.theme).toBe('dark');
    expect(paint?.markup).toContain('Newest answer');
    expect(paint?.markup).toContain('data-session-id="s_one"');
    expect(paint?.markup).toContain('left:264px;top:103px;right:0px;bottom:166px');
    // Shown to the eye only: no pointer, no second reading by assistive technology.
    expect(paint?.markup).toMatch(/^<div id="first-paint" aria-hidden="true" inert /);
  });

  it('is not saved for rows the log has moved past', async () => {
    expect(await savePaint(log, { seq: 2, insets: INSETS, theme: 'light', html: ROWS })).toEqual({ saved: false });
    expect(existsSync(paintFile(log))).toBe(false);
  });

  it('is not served once the log has an event after it (a host killed after writing it, another window)', async () => {
    await savePaint(log, { seq: 3, insets: INSETS, theme: 'light', html: ROWS });
    appendFileSync(log, line(4));
    expect(await firstPaintBlock(dataDir)).toBeNull();
  });

  it('is not served for a log rewritten to the same length of events (its last event differs)', async () => {
    await savePaint(log, { seq: 3, insets: INSETS, theme: 'light', html: ROWS });
    writeFileSync(log, line(1) + line(2) + `${JSON.stringify({ kind: 'notice', sessionId: 's_one', seq: 3, ts: 5 })}\n`);
    expect(await firstPaintBlock(dataDir)).toBeNull();
  });

  it('reads the last whole event of a log whose last line is torn, or longer than one read', async () => {
    appendFileSync(log, '{"kind":"notice","message":"cut by a cra');
    expect(await lastEvent(log)).toEqual({ seq: 3, ts: 1003 });
    writeFileSync(log, line(1) + line(2, { message: 'x'.repeat(100_000) }));
    expect(await lastEvent(log)).toEqual({ seq: 2, ts: 1002 });
    writeFileSync(log, line(1, { message: 'y'.repeat(40_000) }));
    expect(await lastEvent(log)).toEqual({ seq: 1, ts: 1001 });
    writeFileSync(log, '');
    expect(await lastEvent(log)).toBeNull();
  });

  it('is served only for the active tab, and nothing when a file is missing or unreadable', async () => {
    await savePaint(log, { seq: 3, insets: INSETS, theme: 'light', html: ROWS });
    expect(await firstPaintBlock(dataDir)).not.toBeNull();
    writeFileSync(join(dataDir, 'sessions', 'tabs.json'), JSON.stringify({ open: ['s_one', 's_two'], active: 's_two' }));
    expect(await firstPaintBlock(dataDir)).toBeNull();
    writeFileSync(join(dataDir, 'sessions', 'tabs.json'), JSON.stringify({ open: [], active: 's_one' }));
    expect(await firstPaintBlock(dataDir)).toBeNull();
    writeFileSync(join(dataDir, 'sessions', 'tabs.json'), JSON.stringify({ open: ['../x'], active: '../x' }));
    expect(await firstPaintBlock(dataDir)).toBeNull();
    writeFileSync(join(dataDir, 'sessions', 'tabs.json'), '{ not json');
    expect(await firstPaintBlock(dataDir)).toBeNull();
    writeFileSync(join(dataDir, 'sessions', 'tabs.json'), JSON.stringify({ open: ['s_one'], active: 's_one' }));
    writeFileSync(paintFile(log), '{"version":1,"seq":3');
    expect(await firstPaintBlock(dataDir)).toBeNull();
    writeFileSync(
      paintFile(log),
      JSON.stringify({ version: 1, seq: 3, ts: 1003, theme: 'light', insets: { left: -1, top: 0, right: 0, bottom: 0 }, html: ROWS }),
    );
    expect(await firstPaintBlock(dataDir)).toBeNull();
    removePaint(log);
    expect(existsSync(paintFile(log))).toBe(false);
    expect(await firstPaintBlock(dataDir)).toBeNull();
  });

  it('refuses markup that could run, load or submit anything, and serves none written past the check', async () => {
    for (const html of [
      '<script>alert(1)</script>',
      '<div onclick="alert(1)">x</div>',
      '<div title="a>" onmouseover="alert(1)">x</div>',
      '<img src=x onerror=alert(1)>',
      '<a href=" javascript:alert(1)">x</a>',
      '<iframe srcdoc="x"></iframe>',
      '<meta http-equiv="refresh" content="0;url=https://example.com">',
      '<link rel="stylesheet" href="https://example.com/x.css">',
      '<form action="https://example.com"><button>x</button></form>',
      '<svg><script>alert(1)</script></svg>',
      '<div <script>alert(1)</script>',
    ]) {
      expect(refusedMarkup(html), html).not.toBeNull();
      expect(await savePaint(log, { seq: 3, insets: INSETS, theme: 'light', html })).toMatchObject({ saved: false });
    }
    // Text that only looks like markup is escaped in a serialized DOM: accepted.
    expect(
      refusedMarkup('<p>Use &lt;button onclick="go()"&gt; and <code>a &amp;&amp; b</code></p><svg viewBox="0 0 16 16"><path d="M1 1h14"></path></svg>'),
    ).toBeNull();
    // A file edited on disk is checked again when served.
    writeFileSync(paintFile(log), JSON.stringify({ version: 1, seq: 3, ts: 1003, theme: 'light', insets: INSETS, html: '<script>alert(1)</script>' }));
    expect(await firstPaintBlock(dataDir)).toBeNull();
  });
});
