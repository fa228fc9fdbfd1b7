/**
 * Opening a session in the page, taken apart (issue 23, round 4): three sessions of N entries
 * open in tabs of the browser host (as `npm run bench`), one unmeasured load (the snapshots
 * written), then `--rounds` page loads per build (`--out`, repeatable; default `out/`),
 * interleaved. Each load prints a timeline from navigation start, from the Chrome DevTools
 * Protocol: every HTTP request (sent → finished), the WebSocket's opening and every request the
 * page sends on it with its answer (name, bytes), the first paint, the active session's newest
 * entry shown (a MutationObserver in the page), and the page's main-thread time (script,
 * layout) from `Performance.getMetrics`. With `--profile`, the page's CPU profile of the load
 * (its hottest functions; `RENDERER_MINIFY=0 npm run build` for names).
 *
 *   npm run build && npx tsx bench/openPage.profile.ts [--entries 1000] [--rounds 3] [--out out --out other/out] [--quiet] [--profile]
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Browser } from 'playwright-core';
import { launchBenchBrowser } from './browser';
import { writeLongLog } from '../src-main/testing/longLog';
import { startHost } from './host';
import { median } from './longNode';
import { hottest } from './profileSummary';
import { arg, args, BENCH_AGENT, load } from './cliArgs';

const ROOT = resolve(import.meta.dirname, '..');
const ENTRIES = Number(arg('--entries', '1000'));
const ROUNDS = Number(arg('--rounds', '3'));
const QUIET = args.includes('--quiet');
const PROFILE = args.includes('--profile');
const OUTS = args.flatMap((a, i) => (a === '--out' && args[i + 1] ? [resolve(args[i + 1])] : []));
if (OUTS.length === 0) OUTS.push(join(ROOT, 'out'));
const SESSIONS = ['s_bench_a', 's_bench_b', 's_bench_c'];

interface Line {
  at: number;
  text: string;
}

interface Round {
  open: number;
  second: number;
  /** Navigation start → the page's first request for a session window. */
  windowAsked: number;
  /** The first window's answer → the newest entry shown: the page's own part. */
  render: number;
  /** Requests sent on the socket before the first window request. */
  before: number;
  /** Bytes of script and CSS fetched before the newest entry showed. */
  jsKB: number;
  scriptMs: number;
  layoutMs: number;
  lines: Line[];
}

/** `newest`: each session's newest entry, the active tab's first (the bench leaves the first tab active). */
async function round(browser: Browser, out: string, dataDir: string, newest: string[]): Promise<Round> {
  process.env.BENCH_OUT = out;
  // Every load opens with the first tab shown (the last round's clicks may not have been saved).
  writeFileSync(join(dataDir, 'sessions', 'tabs.json'), JSON.stringify({ open: SESSIONS, active: SESSIONS[0] }));
  const host = await startHost({ agents: [BENCH_AGENT] }, { dataDir, keepData: true });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const lines: Line[] = [];
  let t0 = 0;
  const at = (ts: number) => ts * 1000 - t0;
  const requests = new Map<string, { url: string; sent: number }>();
  const asked = new Map<string, { name: string; at: number; bytes: number }>();
  let firstWindow = NaN;
  let firstAnswer = NaN;
  let before = 0;
  let jsBytes = 0;
  try {
    await cdp.send('Network.enable');
    await cdp.send('Performance.enable', { timeDomain: 'timeTicks' });
    cdp.on('Network.requestWillBeSent', (e) => {
      if (!t0) t0 = e.timestamp * 1000;
      requests.set(e.requestId, { url: e.request.url, sent: at(e.timestamp) });
    });
    cdp.on('Network.loadingFinished', (e) => {
      const r = requests.get(e.requestId);
      if (!r) return;
      const name = r.url.replace(/^https?:\/\/[^/]+/, '').replace(/\?.*$/, '');
      if (/\.(js|css)$/.test(name)) jsBytes += e.encodedDataLength;
      lines.push({ at: r.sent, text: `GET ${name} → ${at(e.timestamp).toFixed(0)} ms (${(e.encodedDataLength / 1024).toFixed(1)} KB)` });
    });
    cdp.on('Network.webSocketWillSendHandshakeRequest', (e) => lines.push({ at: at(e.timestamp), text: 'socket: handshake sent' }));
    cdp.on('Network.webSocketHandshakeResponseReceived', (e) => lines.push({ at: at(e.timestamp), text: 'socket open' }));
    cdp.on('Network.webSocketFrameSent', (e) => {
      const data = e.response.payloadData;
      // Ids are numbers, or strings from the early script ("early:1").
      const m = /^\{"t":"req","id":(\d+|"[^"]*"),"name":"([^"]+)"/.exec(data);
      if (!m) return;
      const id = m[1];
      asked.set(id, { name: m[2], at: at(e.timestamp), bytes: 0 });
      if (m[2] === 'session.window' && Number.isNaN(firstWindow)) firstWindow = at(e.timestamp);
      if (Number.isNaN(firstWindow)) before++;
    });
    cdp.on('Network.webSocketFrameReceived', (e) => {
      const data = e.response.payloadData;
      const m = /^\{"t":"res","id":(\d+|"[^"]*")/.exec(data);
      const evt = /^\{"t":"evt","name":"([^"]+)"/.exec(data);
      if (evt) lines.push({ at: at(e.timestamp), text: `  ← event ${evt[1]} (${(data.length / 1024).toFixed(1)} KB)` });
      if (!m) return;
      const r = asked.get(m[1]);
      if (r?.name === 'session.window' && Number.isNaN(firstAnswer)) firstAnswer = at(e.timestamp);
      if (r) lines.push({ at: r.at, text: `  → ${r.name} … answered ${at(e.timestamp).toFixed(0)} ms (${(data.length / 1024).toFixed(1)} KB)` });
    });
    await page.addInitScript(`(() => {
      const wanted = ${JSON.stringify([newest[0]])};
      const watch = () => {
        const log = document.querySelector('[role="log"]');
        const text = log ? log.textContent : '';
        if (wanted.some((w) => text.includes(w))) { window.benchShown = performance.now(); obs.disconnect(); }
      };
      const obs = new MutationObserver(watch);
      document.addEventListener('DOMContentLoaded', () => obs.observe(document.body, { childList: true, subtree: true, characterData: true }));
    })()`);
    if (PROFILE) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    const start = performance.now();
    await page.goto(host.url);
    await page.waitForFunction('window.benchShown !== undefined', undefined, { timeout: 300_000, polling: 16 });
    const open = performance.now() - start;
    const shown = (await page.evaluate('window.benchShown')) as number;
    const paints = (await page.evaluate(`performance.getEntriesByType('paint').map((p) => [p.name, p.startTime])`)) as [string, number][];
    const nav = (await page.evaluate(
      `(() => { const n = performance.getEntriesByType('navigation')[0]; return [n.responseEnd, n.domInteractive, n.domContentLoadedEventEnd]; })()`,
    )) as number[];
    for (const [name, t] of paints) lines.push({ at: t, text: name });
    lines.push(
      { at: nav[0], text: 'index.html received' },
      { at: nav[1], text: 'DOM interactive (module scripts run next)' },
      { at: nav[2], text: 'DOMContentLoaded end' },
    );
    lines.push({ at: shown, text: `NEWEST ENTRY SHOWN (bench's wall clock: ${open.toFixed(0)} ms)` });
    // A second session: its tab clicked, until its newest entry shows (its window was asked for at open).
    const clickAt = (await page.evaluate('performance.now()')) as number;
    const secondStart = performance.now();
    await page.getByRole('tablist', { name: 'Open sessions' }).getByRole('tab').nth(1).click();
    await page.waitForFunction(`document.querySelector('[role="log"]')?.textContent?.includes(${JSON.stringify(newest[1])})`, undefined, {
      timeout: 300_000,
      polling: 16,
    });
    const second = performance.now() - secondStart;
    // Back to the first tab: the next load opens it again.
    await page.getByRole('tablist', { name: 'Open sessions' }).getByRole('tab').nth(0).click();
    await page.waitForFunction(`document.querySelector('[role="log"]')?.textContent?.includes(${JSON.stringify(newest[0])})`, undefined, {
      timeout: 300_000,
      polling: 16,
    });
    lines.push({ at: clickAt, text: `SECOND TAB CLICKED` }, { at: clickAt + second, text: `SECOND SESSION SHOWN (${second.toFixed(0)} ms)` });
    const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
    const metric = (name: string) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
    if (PROFILE) {
      const { profile } = await cdp.send('Profiler.stop');
      mkdirSync(join(ROOT, 'bench/profiles'), { recursive: true });
      const file = join(ROOT, 'bench/profiles', `open-page-${Date.now()}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      console.log(`page profile: ${file}`);
      for (const line of hottest(file, 20)) console.log(line);
    }
    return {
      open,
      second,
      render: shown - firstAnswer,
      windowAsked: firstWindow,
      before,
      jsKB: jsBytes / 1024,
      scriptMs: metric('ScriptDuration'),
      layoutMs: metric('LayoutDuration') + metric('RecalcStyleDuration'),
      lines: lines.filter((l) => Number.isFinite(l.at)).sort((a, b) => a.at - b.at),
    };
  } finally {
    await context.close();
    await host.stop();
  }
}

async function main(): Promise<void> {
  console.log(`open in the page: ${ENTRIES} entries × 3 sessions, ${OUTS.length} build(s), ${ROUNDS} rounds interleaved; load average ${load()}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'acp-bench-openpage-'));
  const newest = ['a', 'b', 'c'].map((name) => {
    const sessionId = `s_bench_${name}`;
    const label = ` [${name}]`;
    writeLongLog(join(dataDir, 'sessions', `${sessionId}.jsonl`), ENTRIES, sessionId, label);
    return { sessionId, newest: `Question ${Math.ceil(ENTRIES / 4) - 1}${label}` };
  });
  const browser = await launchBenchBrowser();
  const results = new Map<string, Round[]>(OUTS.map((o) => [o, []]));
  try {
    const shows = newest.map((s) => s.newest);
    for (const out of OUTS) await round(browser, out, dataDir, shows);
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? OUTS : [...OUTS].reverse();
      for (const out of order) {
        const result = await round(browser, out, dataDir, shows);
        results.get(out)!.push(result);
        if (!QUIET) {
          console.log(`\n${out.replace(ROOT + '/', '')}, round ${r + 1} (load ${load()}):`);
          for (const line of result.lines) console.log(`${line.at.toFixed(0).padStart(7)} ms  ${line.text}`);
        }
      }
    }
  } finally {
    await browser.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(
    `\n${'build'.padEnd(40)}${'open'.padStart(7)}${'2nd'.padStart(6)}${'answer→shown'.padStart(14)}${'window asked'.padStart(14)}${'reqs before'.padStart(13)}${'JS KB'.padStart(8)}${'script'.padStart(8)}${'layout'.padStart(8)}`,
  );
  for (const [out, list] of results) {
    const m = (f: (r: Round) => number) => median(list.map(f)).toFixed(0);
    console.log(
      `${out.replace(ROOT + '/', '').padEnd(40)}${m((r) => r.open).padStart(7)}${m((r) => r.second).padStart(6)}${m((r) => r.render).padStart(14)}${m((r) => r.windowAsked).padStart(14)}${m((r) => r.before).padStart(13)}${m((r) => r.jsKB).padStart(8)}${m((r) => r.scriptMs).padStart(8)}${m((r) => r.layoutMs).padStart(8)}`,
    );
  }
  console.log(`load average at the end: ${load()}`);
}

void main();
