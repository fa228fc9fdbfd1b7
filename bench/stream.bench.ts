/**
 * Streaming end to end: the browser host with the flood agent, driven in Chromium, against a
 * bare ACP SDK client reading the same agent.
 *
 *   npm run build && npm run bench:stream [-- --runs 3] [--sizes 5000,20000,100000] [--profile] [--skip-large] [--skip-typing] [--cold] [--inspector]
 *
 * For each N (chunks of 40 characters): the time from Send to the last chunk visible and the
 * session idle, the bare-SDK client's time for the same prompt, their ratio, the longest page
 * task (PerformanceObserver longtask), the largest gap between animation frames, the renderer's
 * JS heap and the host's RSS after the stream. The app is measured on its second answer in the
 * window (the first, `flood 3000`, warms the page's and host's code, as earlier runs have warmed
 * the bare client's in this process); `--cold` measures the first. Contenders are interleaved (app, bare, app,
 * bare…) and medians printed: the machine is shared and noisy. Then a single 5 MB chunk and a
 * 1 MB Markdown message with fences and tables, then typing and tab switches during an endless
 * stream (responsiveness.ts; `--skip-typing` leaves it out). `--profile` writes CPU profiles of the page
 * (CDP) and the host (`node --cpu-prof`) for the largest N into bench/profiles/ and prints
 * their hottest functions. `--inspector` adds a third contender for each N: the app with the
 * protocol inspector open on the flood agent while it streams (live traffic, issue 27).
 * A benchmark, not a test: it prints numbers and never fails on them.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Browser } from 'playwright-core';
import { launchBenchBrowser } from './browser';
import { bareClientRun, type BareResult } from './bareClient';
import { cpuMs, newSession, rssMB, startHost } from './host';
import { hottest } from './profileSummary';
import { responsivenessRun, type ResponsivenessResult } from './responsiveness';
import { arg, args } from './cliArgs';

const ROOT = resolve(import.meta.dirname, '..');
const FLOOD_AGENT = join(ROOT, 'e2e/fixtures/flood-agent.mjs');
const PROFILES = join(ROOT, 'bench/profiles');
const RUNS = Number(arg('--runs', process.env.BENCH_RUNS ?? '3'));
const SIZES = arg('--sizes', process.env.BENCH_SIZES ?? '5000,20000,100000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0); // `--sizes 0`: only the large workloads
const PROFILE = args.includes('--profile');
const SKIP_LARGE = args.includes('--skip-large');
const SKIP_TYPING = args.includes('--skip-typing');
const INSPECTOR = args.includes('--inspector');
/** A first answer in the same window and session before the measured one (the bare client runs warm in this process too); `--cold` measures the window's first answer. */
const WARM = args.includes('--cold') ? '' : 'flood 3000';
const AGENT = { id: 'flood', name: 'Flood Agent', command: process.execPath, args: [FLOOD_AGENT] };

interface AppResult {
  ms: number;
  longestTaskMs: number;
  longestFrameGapMs: number;
  heapMB: number;
  rssMB: number;
  /** CPU time of the page's renderer process and of the host from Send to the end: their work, which a noisy machine moves less than the wall clock. */
  pageCpuMs: number;
  hostCpuMs: number;
  pageProfile?: string;
}

/** One app run: a fresh host and page, a new session with the flood agent, one prompt. */
async function appRun(browser: Browser, prompt: string, lastText: string, profile = false, inspector = false): Promise<AppResult> {
  const hostProfileDir = profile ? mkdtempSync(join(tmpdir(), 'acp-bench-prof-')) : undefined;
  const host = await startHost({ agents: [AGENT] }, { profileDir: hostProfileDir });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  try {
    await page.goto(host.url);
    await page.getByRole('heading', { name: 'Agents' }).waitFor();
    await newSession(page, AGENT.name);
    const idle = `document.querySelector('[aria-label="Session status"]')?.textContent === 'Idle'`;
    if (WARM) {
      await page.getByRole('textbox', { name: 'Message' }).fill(WARM);
      await page.getByRole('button', { name: 'Send' }).click();
      await page.waitForFunction(
        `${idle} && document.querySelector('[role="log"] article[aria-label="Agent"]')?.textContent.trimEnd().endsWith('END')`,
        undefined,
        { timeout: 60_000 },
      );
    }
    // Rows of the transcript so far (it is virtualized: the warm-up's answer may be unmounted later).
    await page.getByRole('textbox', { name: 'Message' }).fill(prompt);
    // Opened before the measurement starts (its opening is not the stream's cost). It is a modal
    // dialog: the page under it is inert, so Send is clicked from script.
    if (inspector) {
      await page.getByRole('button', { name: 'Protocol inspector', exact: true }).click();
      await page
        .getByRole('dialog', { name: /^Protocol inspector/ })
        .getByRole('list', { name: 'Messages' })
        .waitFor();
      await page.waitForTimeout(500);
    }
    const rowsBefore = Number(await page.evaluate(`document.querySelector('.transcript-inner')?.dataset.rowsTotal ?? 0`));
    // Strings, not functions: tsx's helpers (`__name`) do not exist in the page.
    await page.evaluate(`(() => {
      window.benchLongest = 0;
      window.benchGap = 0;
      window.benchRunning = true;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.benchLongest = Math.max(window.benchLongest, entry.duration);
      }).observe({ type: 'longtask', buffered: false });
      let last = performance.now();
      const tick = (now) => {
        window.benchGap = Math.max(window.benchGap, now - last);
        last = now;
        if (window.benchRunning) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    })()`);
    const cdp = await context.newCDPSession(page);
    const browserCdp = await browser.newBrowserCDPSession();
    const rendererCpuMs = async () => {
      const { processInfo } = (await browserCdp.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; cpuTime: number }[] };
      return processInfo.filter((p) => p.type === 'renderer').reduce((sum, p) => sum + p.cpuTime * 1000, 0);
    };
    const pageBefore = await rendererCpuMs();
    const hostBefore = cpuMs(host.process.pid!);
    if (profile) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    const trace = process.env.BENCH_TRACE;
    if (trace) await browser.startTracing(page, { path: trace, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
    const start = performance.now();
    if (inspector) await page.evaluate(`document.querySelector('.composer-actions button[type="submit"]').click()`);
    else await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForFunction(
      `(() => {
        // Cheapest first: this runs in the page on every frame while it streams.
        if (document.querySelector('[aria-label="Session status"]')?.textContent !== 'Idle') return false;
        if (Number(document.querySelector('.transcript-inner')?.dataset.rowsTotal ?? 0) < ${rowsBefore} + 2) return false;
        const agents = document.querySelectorAll('[role="log"] article[aria-label="Agent"]');
        const text = agents[agents.length - 1]?.textContent ?? '';
        // Every part rendered: no text waiting to be cut into blocks or for a slice of a frame.
        const settled = !document.querySelector('.markdown-pending, .markdown-deferred');
        return settled && text.trimEnd().endsWith(${JSON.stringify(lastText)});
      })()`,
      undefined,
      { timeout: 900_000, polling: 'raf' },
    );
    const ms = performance.now() - start;
    const hostCpuMs = cpuMs(host.process.pid!) - hostBefore;
    const pageCpuMs = (await rendererCpuMs()) - pageBefore;
    if (trace) await browser.stopTracing();
    let pageProfile: string | undefined;
    if (profile) {
      const { profile: data } = await cdp.send('Profiler.stop');
      mkdirSync(PROFILES, { recursive: true });
      pageProfile = join(PROFILES, `page-${Date.now()}.cpuprofile`);
      writeFileSync(pageProfile, JSON.stringify(data));
    }
    const marks = (await page.evaluate('(window.benchRunning = false, { longest: window.benchLongest, gap: window.benchGap })')) as {
      longest: number;
      gap: number;
    };
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('Performance.enable');
    const { metrics } = await cdp.send('Performance.getMetrics');
    const heap = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
    const rss = rssMB(host.process.pid!);
    return { ms, longestTaskMs: marks.longest, longestFrameGapMs: marks.gap, heapMB: heap / 1024 / 1024, rssMB: rss, pageCpuMs, hostCpuMs, pageProfile };
  } finally {
    await context.close();
    await host.stop();
    if (hostProfileDir) {
      const file = readdirSync(hostProfileDir).find((f) => f.endsWith('.cpuprofile'));
      if (file) {
        mkdirSync(PROFILES, { recursive: true });
        const target = join(PROFILES, `host-${Date.now()}.cpuprofile`);
        writeFileSync(target, readFileSync(join(hostProfileDir, file)));
        console.log(`host profile: ${target}`);
        for (const line of hottest(target, 12)) console.log(`  ${line}`);
      }
      rmSync(hostProfileDir, { recursive: true, force: true });
    }
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const fmt = (n: number, width = 9, digits = 0) => n.toFixed(digits).padStart(width);

async function main(): Promise<void> {
  const browser = await launchBenchBrowser(['--enable-precise-memory-info']);
  const rows: string[] = [];
  const header = `${'workload'.padEnd(24)}${'app ms'.padStart(9)}${'bare ms'.padStart(9)}${'ratio'.padStart(7)}${'page cpu'.padStart(9)}${'host cpu'.padStart(9)}${'bare cpu'.padStart(9)}${'task ms'.padStart(9)}${'frame gap'.padStart(10)}${'heap MB'.padStart(9)}${'rss MB'.padStart(8)}`;
  const report = (name: string, app: AppResult[], bare: BareResult[]) => {
    const a = median(app.map((r) => r.ms));
    const b = bare.length ? median(bare.map((r) => r.ms)) : NaN;
    const row =
      `${name.padEnd(24)}${fmt(a)}${bare.length ? fmt(b) : '        -'}${bare.length ? fmt(a / b, 7, 2) : '      -'}` +
      `${fmt(median(app.map((r) => r.pageCpuMs)))}${fmt(median(app.map((r) => r.hostCpuMs)))}${bare.length ? fmt(median(bare.map((r) => r.cpuMs))) : '        -'}${fmt(median(app.map((r) => r.longestTaskMs)))}${fmt(median(app.map((r) => r.longestFrameGapMs)), 10)}${fmt(median(app.map((r) => r.heapMB)), 9, 1)}${fmt(median(app.map((r) => r.rssMB)), 8, 1)}`;
    rows.push(row);
    console.log(row);
  };
  console.log(
    `Node ${process.version}; ${RUNS} runs per contender, interleaved; medians. Load average at start: ${(await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(header);
  try {
    for (const n of SIZES) {
      const prompt = `flood ${n}`;
      const app: AppResult[] = [];
      const bare: BareResult[] = [];
      const withInspector: AppResult[] = [];
      for (let run = 0; run < RUNS; run++) {
        const profileThis = PROFILE && run === 0 && n === Math.max(...SIZES);
        const order = run % 2 === 0 ? ['app', 'bare', 'inspector'] : ['inspector', 'bare', 'app'];
        for (const who of order) {
          if (who === 'inspector') {
            if (INSPECTOR) withInspector.push(await appRun(browser, prompt, 'END', false, true));
          } else if (who === 'app') {
            const result = await appRun(browser, prompt, 'END', profileThis);
            if (result.pageProfile) {
              console.log(`page profile: ${result.pageProfile}`);
              for (const line of hottest(result.pageProfile, 15)) console.log(`  ${line}`);
            }
            app.push(result);
          } else {
            const result = await bareClientRun({ command: AGENT.command, args: AGENT.args }, prompt, tmpdir());
            if (result.chunks !== n) throw new Error(`bare client saw ${result.chunks} chunks, expected ${n}`);
            bare.push(result);
          }
        }
      }
      report(`${n.toLocaleString('en')} chunks × 40`, app, bare);
      if (INSPECTOR) report(`  with the inspector open`, withInspector, bare);
    }
    if (!SKIP_LARGE) {
      const big: AppResult[] = [];
      const bigBare: BareResult[] = [];
      const md: AppResult[] = [];
      const mdBare: BareResult[] = [];
      for (let run = 0; run < RUNS; run++) {
        big.push(await appRun(browser, 'big 5000000', 'x'.repeat(20), false));
        bigBare.push(await bareClientRun({ command: AGENT.command, args: AGENT.args }, 'big 5000000', tmpdir()));
        if (process.env.BENCH_TRACE) process.env.BENCH_TRACE = process.env.BENCH_TRACE.replace(/(-md)?\.json$/, '-md.json');
        const mdRun = await appRun(browser, 'markdown 1000000', 'nested', PROFILE && run === 0 && SIZES.length === 0);
        if (mdRun.pageProfile) {
          console.log(`page profile: ${mdRun.pageProfile}`);
          for (const line of hottest(mdRun.pageProfile, 15)) console.log(`  ${line}`);
        }
        md.push(mdRun);
        mdBare.push(await bareClientRun({ command: AGENT.command, args: AGENT.args }, 'markdown 1000000', tmpdir()));
      }
      report('one 5 MB chunk', big, bigBare);
      report('1 MB Markdown (4 KB)', md, mdBare);
    }
    if (!SKIP_TYPING) {
      const runs: ResponsivenessResult[] = [];
      for (let run = 0; run < RUNS; run++) runs.push(await responsivenessRun(browser, AGENT));
      const m = (pick: (r: ResponsivenessResult) => number) => Math.round(median(runs.map(pick)));
      const row =
        `During an endless stream (3 s in): typing 21 characters ${m((r) => r.typingMs)} ms (keydown to paint: median ${m((r) => r.keyMedianMs)} ms, ` +
        `max ${m((r) => r.keyMaxMs)} ms); tab switch ${m((r) => r.switchAwayMs)} ms, back ${m((r) => r.switchBackMs)} ms; longest task ${m((r) => r.longestTaskMs)} ms`;
      rows.push(row);
      console.log(row);
    }
  } finally {
    await browser.close();
  }
  console.log('');
  console.log(header);
  for (const row of rows) console.log(row);
  process.exit(0);
}

void main();
