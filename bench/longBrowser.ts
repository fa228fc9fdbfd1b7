/**
 * The browser half of `npm run bench`: three sessions of N entries open in tabs of the browser
 * host, driven in Chromium, each figure next to a floor from the same run: a trivial Node server
 * whose page fetches the same log, parses it and shows the newest 40 entries as plain text (and,
 * for scrolling, every entry as a plain line).
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { brotliCompressSync, constants } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { memoryOverTime, rssMB, startHost } from './host';
import { median, type Row } from './longNode';
import { BENCH_AGENT } from './cliArgs';

const ROOT = resolve(import.meta.dirname, '..');

export interface Seeded {
  sessionId: string;
  /** Text only this session's newest turn shows. */
  newest: string;
}

interface AppRound {
  coldStart: number;
  /** Host start → the app's own agent list (the served shell gone: interactive). */
  coldStartApp: number;
  /** The same cold start as Playwright's wait sees it: it looks again 0, 20, 70, 170, 270, 770… ms after the page's `load`. */
  driverColdStart: number;
  open: number;
  /** Page load → the app's own transcript shows the newest entry (the first paint gone). */
  openApp: number;
  second: number;
  switches: number[];
  /** The same switches as Playwright sees them: its click's round trips and its polling included. */
  driverSwitches: number[];
  scrollMs: number;
  frameP95: number;
  heapMB: number;
  rssMB: number;
}

interface FloorRound {
  coldStart: number;
  driverColdStart: number;
  open: number;
  scrollMs: number;
  frameP95: number;
}

/** The floor: a trivial server (its own process) and a page that fetches, parses and shows the log. */
const FLOOR_SERVER = `
const http = require('node:http'); const fs = require('node:fs'); const path = require('node:path');
const dir = process.argv[1];
const page = ${JSON.stringify(`<!doctype html><meta charset="utf-8"><title>floor</title>
<style>body{margin:0;font:14px sans-serif}#log{height:100vh;overflow:auto;white-space:pre-wrap}</style>
<div id="log" role="log">ready</div><script>
const id = location.hash.slice(1);
if (id) fetch('/log/' + id).then((r) => r.text()).then((text) => {
  const entries = [];
  let reply = null;
  for (const line of text.split('\\n')) {
    if (!line) continue;
    const e = JSON.parse(line);
    if (e.kind === 'turn.started') { entries.push(e.prompt.map((b) => b.text).join('')); reply = null; }
    else if (e.kind === 'message.chunk' && e.role === 'agent') { if (reply === null) { reply = entries.length; entries.push(''); } entries[reply] += e.content.text; }
    else if (e.kind === 'tool.updated' && e.fields.title) entries.push(e.fields.title);
  }
  const log = document.getElementById('log');
  log.textContent = entries.slice(-40).join('\\n');
  window.floorEntries = entries;
});
window.showAll = () => { const log = document.getElementById('log'); log.textContent = ''; for (const t of window.floorEntries) { const d = document.createElement('div'); d.textContent = t; log.append(d); } log.scrollTop = log.scrollHeight; };
</script>`)};
const server = http.createServer((req, res) => {
  if (req.url.startsWith('/log/')) return fs.createReadStream(path.join(dir, 'sessions', path.basename(req.url.slice(5)) + '.jsonl')).pipe(res);
  res.writeHead(200, { 'content-type': 'text/html' }); res.end(page);
});
server.listen(0, '127.0.0.1', () => console.log('serving at http://127.0.0.1:' + server.address().port + '/'));
`;

export async function floorServer(dataDir: string): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ['-e', FLOOR_SERVER, dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((done) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /serving at (\S+)/.exec(out);
      if (match) done(match[1]);
    });
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

/**
 * Watches, from the document's start, for the frame in which `selector`'s text first holds one of
 * `texts` (with none, the frame in which `selector` is first present): checked in each frame's animation callback (before that frame's paint), so the time is
 * that frame, not when a poll from outside got its turn on a busy page (nor after the `load`
 * event, which waits for every script). A frame's pixels reach the screen after its callbacks, and
 * on a busy page (the app's script starting) later still: a time is never taken as earlier than
 * the page's first contentful paint (its presentation time), which is what a first paint served
 * with the page shows. The floor's page is idle then, and its entry comes after its first paint.
 * `shownAt` resolves with the time in this process's `performance.now()` clock. It reads the page
 * with the browser's own protocol (`Runtime.evaluate` of one expression): Playwright's waits
 * (`waitForFunction`, a locator's `waitFor`) first put Playwright's script, some 300 KB, in the
 * page, and its compile ran on the page's main thread beside the very frame being timed (8–16 ms
 * of CPU just before the app's first contentful paint, in a trace). Call it before any of those.
 */
export async function watchShown(page: Page, watches: Record<string, { selector: string; texts: string[] }>): Promise<(name: string) => Promise<number>> {
  await page.addInitScript(`(() => {
    const watches = ${JSON.stringify(watches)};
    window.benchShown = {};
    const check = () => {
      let pending = false;
      for (const [name, { selector, texts }] of Object.entries(watches)) {
        if (name in window.benchShown) continue;
        const found = document.querySelector(selector);
        const text = found?.textContent ?? '';
        if (found && (texts.length === 0 || texts.some((t) => text.includes(t)))) window.benchShown[name] = performance.now();
        else pending = true;
      }
      if (pending) requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  })()`);
  const cdp = await page.context().newCDPSession(page);
  return async (name) => {
    const expression = `(() => {
      const at = window.benchShown?.[${JSON.stringify(name)}];
      const paint = performance.getEntriesByName('first-contentful-paint')[0];
      return at === undefined || !paint ? null : performance.timeOrigin + Math.max(at, paint.startTime);
    })()`;
    const deadline = performance.now() + Number(process.env.BENCH_WAIT_MS ?? 300_000);
    for (;;) {
      const { result } = (await cdp.send('Runtime.evaluate', { expression, returnByValue: true })) as { result: { value?: unknown } };
      if (typeof result.value === 'number') return result.value - performance.timeOrigin;
      if (performance.now() > deadline) throw new Error(`"${name}" was not shown in the page in time`);
      await new Promise((resolve) => setTimeout(resolve, 16));
    }
  };
}

/**
 * The agent list is shown when its first agent's "New session" button is in a frame. Stamped in
 * the page like "open": Playwright's own wait looks again 0, 20, 70, 170, 270, 770… ms after the
 * page's `load`, so a list drawn 300 ms after `load` read as 770 (the floor's text is there before
 * `load` and read at once).
 */
export const AGENT_LIST_SHOWN = `button[aria-label="New session with ${BENCH_AGENT.name}"]`;

function shows(page: Page, text: string) {
  return page.waitForFunction(`document.querySelector('[role="log"]')?.textContent?.includes(${JSON.stringify(text)})`, undefined, {
    timeout: 300_000,
    polling: 16,
  });
}

/**
 * A click on `tab`, timed by the page itself: from the click event's timestamp to the end of
 * the first frame that shows `text` in the transcript (checked once a frame, before it is
 * painted; the timer set there runs after the paint). Playwright's own time for the same click
 * adds its round trips to the browser and its polling, which are not the app's.
 */
async function clickTimed(page: Page, tab: Locator, text: string): Promise<{ page: number; driver: number }> {
  await page.evaluate(`(() => {
    const text = ${JSON.stringify(text)};
    window.benchShown = new Promise((resolve) => {
      let clickAt;
      window.addEventListener('click', (e) => { clickAt = e.timeStamp; }, { capture: true, once: true });
      const frame = () => {
        const rows = clickAt === undefined ? [] : document.querySelectorAll('[role="log"] .row');
        if ([...rows].some((row) => row.textContent.includes(text))) setTimeout(() => resolve(performance.now() - clickAt));
        else requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    });
  })()`);
  const start = performance.now();
  await tab.click();
  await shows(page, text);
  const driver = performance.now() - start;
  return { page: (await page.evaluate('window.benchShown')) as number, driver };
}

/** 100 wheel steps up, each followed by a frame: the time they take and the p95 frame while they run. */
export async function wheel(page: Page): Promise<{ ms: number; frameP95: number }> {
  await page.evaluate(`(() => {
    window.benchFrames = []; window.benchRunning = true;
    let last = performance.now();
    const tick = (now) => { window.benchFrames.push(now - last); last = now; if (window.benchRunning) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  })()`);
  await page.mouse.move(640, 450);
  const start = performance.now();
  for (let i = 0; i < 100; i++) {
    await page.mouse.wheel(0, -800);
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => r()))');
  }
  const ms = performance.now() - start;
  const frames = (await page.evaluate('(window.benchRunning = false, window.benchFrames.slice(1))')) as number[];
  const sorted = frames.sort((a, b) => a - b);
  return { ms, frameP95: sorted[Math.floor(sorted.length * 0.95)] ?? NaN };
}

async function heapMB(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  await cdp.detach();
  return usedSize / 1024 / 1024;
}

async function appRound(browser: Browser, dataDir: string, sessions: Seeded[]): Promise<AppRound> {
  const spawned = performance.now();
  const host = await startHost({ agents: [BENCH_AGENT] }, { dataDir, keepData: true });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  try {
    // The active tab (the one the last round left) shows its newest entry: in the first paint
    // served with the page (features/chat/firstPaint.ts), then in the app's own transcript.
    const texts = sessions.map((s) => s.newest);
    const shownAt = await watchShown(page, {
      open: { selector: '#first-paint, [role="log"]', texts },
      app: { selector: '[role="log"]', texts },
      list: { selector: AGENT_LIST_SHOWN, texts: [] },
      listApp: { selector: `#root ${AGENT_LIST_SHOWN}`, texts: [] },
    });
    const loadStart = performance.now();
    await page.goto(host.url);
    // The first frame's figures first, read without Playwright's script in the page (watchShown).
    const coldStart = (await shownAt('list')) - spawned;
    const open = (await shownAt('open')) - loadStart;
    await page.getByRole('button', { name: `New session with ${BENCH_AGENT.name}` }).waitFor({ timeout: 300_000 });
    const driverColdStart = performance.now() - spawned;
    const coldStartApp = (await shownAt('listApp')) - spawned;
    const openApp = (await shownAt('app')) - loadStart;
    const tabs = page.getByRole('tablist', { name: 'Open sessions' }).getByRole('tab');
    // Every tab is in its place from the first paint; the others are read back after the shown one
    // (busy until then). The clicks below time a switch to a session that is back, not its restore.
    await page.waitForFunction(
      `document.querySelectorAll('[role="tablist"][aria-label="Open sessions"] [role="tab"]:not([aria-busy="true"])').length === ${sessions.length}`,
      undefined,
      {
        timeout: 300_000,
      },
    );
    const shown = await page.evaluate(`document.querySelector('[role="log"]').textContent`);
    const first = sessions.findIndex((s) => String(shown).includes(s.newest));
    const order = [0, 1, 2].filter((i) => i !== first);
    const second = (await clickTimed(page, tabs.nth(order[0]), sessions[order[0]].newest)).page;
    await clickTimed(page, tabs.nth(order[1]), sessions[order[1]].newest);
    const switches: number[] = [];
    const driverSwitches: number[] = [];
    for (const index of [0, 1, 2, 0, 1, 2]) {
      const timed = await clickTimed(page, tabs.nth(index), sessions[index].newest);
      switches.push(timed.page);
      driverSwitches.push(timed.driver);
    }
    const scroll = await wheel(page);
    // Back to the newest entry, so the next round's tab comes back at the bottom.
    await page.getByRole('log', { name: 'Transcript' }).evaluate((el) => (el.scrollTop = el.scrollHeight));
    // Memory is measured once search was used: the search worker starts on first use (or a few
    // seconds after the start), and its index is part of what the host holds.
    await page.getByRole('button', { name: 'History' }).click();
    await page.getByRole('searchbox', { name: 'Search all sessions' }).fill('parser');
    await page.getByRole('list', { name: 'Search results' }).getByRole('button').first().waitFor({ timeout: 300_000 });
    if (process.env.BENCH_MEM_DETAIL) await memoryOverTime(host.process.pid!);
    return {
      coldStart,
      coldStartApp,
      driverColdStart,
      open,
      openApp,
      second,
      switches,
      driverSwitches,
      scrollMs: scroll.ms,
      frameP95: scroll.frameP95,
      heapMB: await heapMB(page),
      rssMB: rssMB(host.process.pid!),
    };
  } catch (error) {
    await page.screenshot({ path: join(process.env.BENCH_SHOTS ?? '/tmp', 'bench-long-fail.png') }).catch(() => {});
    throw error;
  } finally {
    await context.close();
    await host.stop();
  }
}

async function floorRound(browser: Browser, dataDir: string, sessions: Seeded[]): Promise<FloorRound> {
  const spawned = performance.now();
  const server = await floorServer(dataDir);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  try {
    const shownAt = await watchShown(page, {
      open: { selector: '[role="log"]', texts: [sessions[0].newest] },
      list: { selector: '[role="log"]', texts: ['ready', sessions[0].newest] },
    });
    const loadStart = performance.now();
    await page.goto(`${server.url}#${sessions[0].sessionId}`);
    const coldStart = (await shownAt('list')) - spawned;
    const open = (await shownAt('open')) - loadStart;
    await page.getByText('ready').or(page.getByText(sessions[0].newest)).first().waitFor();
    const driverColdStart = performance.now() - spawned;
    await page.evaluate('window.showAll()');
    const scroll = await wheel(page);
    return { coldStart, driverColdStart, open, scrollMs: scroll.ms, frameP95: scroll.frameP95 };
  } finally {
    await context.close();
    server.stop();
  }
}

/** The start bundle of a build (`out`, default this checkout's): index.html and what it loads, raw and as served (brotli). */
export function startBundle(out = join(ROOT, 'out')): { raw: number; served: number } {
  const dir = join(out, 'renderer');
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  const files = [join(dir, 'index.html'), ...[...html.matchAll(/(?:src|href)="\/?([^"?#:]+)"/g)].map((m) => join(dir, m[1]))];
  let raw = 0;
  let served = 0;
  for (const file of files) {
    const body = readFileSync(file);
    raw += body.length;
    served += brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }).length;
  }
  return { raw, served };
}

export async function browserFigures(browser: Browser, dataDir: string, sessions: Seeded[], runs: number, entries: number): Promise<Row[]> {
  // Two unmeasured starts: the first open of each session folds its whole log and leaves its
  // snapshot, as the first visit after an upgrade would, and saves the app state the next page
  // draws first; the second page draws it and leaves the shell drawn from it (shellPaint.ts).
  // The rounds measure coming back, as a person does after using the app.
  await appRound(browser, dataDir, sessions);
  await appRound(browser, dataDir, sessions);
  const app: AppRound[] = [];
  const floor: FloorRound[] = [];
  for (let run = 0; run < runs; run++) {
    if (run % 2 === 0) {
      app.push(await appRound(browser, dataDir, sessions));
      floor.push(await floorRound(browser, dataDir, sessions));
    } else {
      floor.push(await floorRound(browser, dataDir, sessions));
      app.push(await appRound(browser, dataDir, sessions));
    }
  }
  const m = <T>(rounds: T[], pick: (r: T) => number) => median(rounds.map(pick));
  const switches = app.flatMap((r) => r.switches);
  const driverSwitches = app.flatMap((r) => r.driverSwitches);
  return [
    {
      figure: 'cold start: host start → agent list (ms)',
      app: m(app, (r) => r.coldStart),
      floor: m(floor, (r) => r.coldStart),
      unit: 'ms',
      goal: { ratio: 1.5 },
    },
    {
      figure: "cold start, until the app's own agent list (ms)",
      app: m(app, (r) => r.coldStartApp),
      floor: m(floor, (r) => r.coldStart),
      unit: 'ms',
      goal: {},
    },
    {
      figure: 'cold start, as Playwright sees it (ms)',
      app: m(app, (r) => r.driverColdStart),
      floor: m(floor, (r) => r.driverColdStart),
      unit: 'ms',
      goal: {},
    },
    {
      figure: 'open: page load → newest entry (ms)',
      app: m(app, (r) => r.open),
      floor: m(floor, (r) => r.open),
      unit: 'ms',
      goal: { ratio: 1.5, ...(entries === 10_000 ? { max: 300 } : {}) },
    },
    {
      figure: "open, until the app's own transcript shows it (ms)",
      app: m(app, (r) => r.openApp),
      floor: m(floor, (r) => r.open),
      unit: 'ms',
      goal: {},
    },
    { figure: 'open a 2nd session (ms)', app: m(app, (r) => r.second), floor: NaN, unit: 'ms', goal: { max: 200 } },
    { figure: 'tab switch p50 (ms)', app: median(switches), floor: NaN, unit: 'ms', goal: { max: 50 } },
    { figure: 'tab switch max (ms)', app: Math.max(...switches), floor: NaN, unit: 'ms', goal: { max: 100 } },
    { figure: 'tab switch p50, as Playwright sees it (ms)', app: median(driverSwitches), floor: NaN, unit: 'ms', goal: {} },
    { figure: 'wheel scroll, 100 steps (ms)', app: m(app, (r) => r.scrollMs), floor: m(floor, (r) => r.scrollMs), unit: 'ms', goal: { ratio: 1.2 } },
    { figure: 'wheel scroll, p95 frame (ms)', app: m(app, (r) => r.frameP95), floor: m(floor, (r) => r.frameP95), unit: 'ms', goal: { max: 17 } },
    { figure: 'host RSS, 3 sessions open (MB)', app: m(app, (r) => r.rssMB), floor: NaN, unit: 'MB', goal: { max: 200 } },
    { figure: 'page heap per open session (MB)', app: m(app, (r) => r.heapMB) / 3, floor: NaN, unit: 'MB', goal: { max: 40 } },
  ];
}
