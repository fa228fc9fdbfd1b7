/**
 * What a tab switch between two long sessions costs, and where the time goes (issue 23): two
 * sessions of N entries (default 10,000) open in tabs of the browser host in Chromium; after
 * both have been shown once, the tabs are switched `--switches` times (each: a click → the
 * session's newest entry shown, and that session's first row painted), then the scroll
 * position of a scrolled-up tab is checked to survive two switches. With `--profile`, a CDP
 * CPU profile of the page over the switches (and `node --cpu-prof` of the host) is written to
 * bench/profiles/ and its hottest functions printed (`RENDERER_MINIFY=0 npm run build` first
 * for readable names). `--trace` writes a Chromium trace and prints the page main thread's CPU time over
 * the switches (thread time: steadier than the wall clock on a loaded machine), and each switch's
 * click and the frame after it as thread CPU and elements styled and laid out (`clickFrames.ts`).
 *
 *   npm run build && npx tsx bench/tabSwitch.profile.ts [--entries 10000] [--switches 8] [--profile]
 */
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Page } from 'playwright-core';
import { launchBenchBrowser } from './browser';
import { writeLongLog } from '../src-main/testing/longLog';
import { startHost } from './host';
import { median } from './longNode';
import { hottest, mainThreadTime } from './profileSummary';
import { clickFrames } from './clickFrames';
import { arg, args, BENCH_AGENT, load } from './cliArgs';

const ROOT = resolve(import.meta.dirname, '..');
const ENTRIES = Number(arg('--entries', '10000'));
const SWITCHES = Number(arg('--switches', '8'));
const PROFILE = args.includes('--profile');
const TRACE = args.includes('--trace');
const PROFILES = join(ROOT, 'bench/profiles');

function shows(page: Page, text: string) {
  return page.waitForFunction(`document.querySelector('[role="log"]')?.textContent?.includes(${JSON.stringify(text)})`, undefined, {
    timeout: 300_000,
    polling: 'raf',
  });
}

async function main(): Promise<void> {
  console.log(`tab switch, ${ENTRIES} entries × 2 sessions, ${SWITCHES} switches; load average ${load()}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'acp-bench-tabs-'));
  const sessions = ['a', 'b'].map((name) => {
    const sessionId = `s_tabs_${name}`;
    const label = ` [${name}]`;
    writeLongLog(join(dataDir, 'sessions', `${sessionId}.jsonl`), ENTRIES, sessionId, label);
    return { sessionId, newest: `Question ${Math.ceil(ENTRIES / 4) - 1}${label}` };
  });
  writeFileSync(join(dataDir, 'sessions', 'tabs.json'), JSON.stringify({ open: sessions.map((s) => s.sessionId), active: sessions[0].sessionId }));
  const hostProfileDir = PROFILE ? mkdtempSync(join(tmpdir(), 'acp-bench-prof-')) : undefined;
  const host = await startHost({ agents: [BENCH_AGENT] }, { dataDir, profileDir: hostProfileDir });
  const browser = await launchBenchBrowser();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  try {
    let start = performance.now();
    await page.goto(host.url);
    await shows(page, sessions[0].newest);
    const open = performance.now() - start;
    const tabs = page.getByRole('tablist', { name: 'Open sessions' }).getByRole('tab');
    start = performance.now();
    await tabs.nth(1).click();
    await shows(page, sessions[1].newest);
    const second = performance.now() - start;
    await tabs.nth(0).click();
    await shows(page, sessions[0].newest);
    await page.waitForTimeout(500);

    const cdp = await context.newCDPSession(page);
    if (PROFILE) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    if (TRACE)
      await browser.startTracing(page, { path: join(PROFILES, 'tabs-trace.json'), categories: ['devtools.timeline', 'blink.user_timing', 'v8.execute'] });
    // The page's own answer to each click: from the click's timestamp to the next paint (Event
    // Timing, what INP measures), without Playwright's round trips or its polling.
    await page.evaluate(`(() => {
      window.benchClicks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) if (entry.name === 'click') window.benchClicks.push(entry.duration);
      }).observe({ type: 'event', durationThreshold: 16, buffered: false });
    })()`);
    const switches: number[] = [];
    for (let i = 0; i < SWITCHES; i++) {
      const index = (i + 1) % 2;
      start = performance.now();
      await tabs.nth(index).click();
      await shows(page, sessions[index].newest);
      switches.push(performance.now() - start);
    }
    if (TRACE) {
      mkdirSync(PROFILES, { recursive: true });
      await browser.stopTracing();
    }
    await page.waitForTimeout(300);
    // Under 16 ms is not reported: counted as 16.
    const clicks = ((await page.evaluate('window.benchClicks')) as number[]).concat(Array<number>(SWITCHES).fill(16)).slice(0, SWITCHES);
    let pageProfile = '';
    if (PROFILE) {
      const { profile } = await cdp.send('Profiler.stop');
      mkdirSync(PROFILES, { recursive: true });
      pageProfile = join(PROFILES, `tabs-page-${Date.now()}.cpuprofile`);
      writeFileSync(pageProfile, JSON.stringify(profile));
    }

    // The scroll position is kept per tab: scroll the active one up, switch away and back.
    const transcript = page.getByRole('log', { name: 'Transcript' });
    await transcript.evaluate((el) => (el.scrollTop = Math.floor(el.scrollHeight / 2)));
    await page.waitForTimeout(300);
    const before = await transcript.evaluate((el) => el.scrollTop);
    const firstRowBefore = await page.evaluate(`document.querySelector('[role="log"] .row')?.dataset.index`);
    const active = SWITCHES % 2;
    await tabs.nth(1 - active).click();
    await shows(page, sessions[1 - active].newest);
    await tabs.nth(active).click();
    await page.waitForTimeout(300);
    const after = await transcript.evaluate((el) => el.scrollTop);
    const firstRowAfter = await page.evaluate(`document.querySelector('[role="log"] .row')?.dataset.index`);

    const sorted = [...switches].sort((a, b) => a - b);
    console.log(`open (page load → newest entry): ${open.toFixed(0)} ms; second session first shown: ${second.toFixed(0)} ms`);
    console.log(`tab switches (ms): ${switches.map((s) => s.toFixed(0)).join(' ')}`);
    console.log(`tab switch p50 ${median(switches).toFixed(0)} ms, max ${sorted[sorted.length - 1].toFixed(0)} ms`);
    console.log(
      `click → next paint (Event Timing, ms): ${clicks.map((c) => c.toFixed(0)).join(' ')}; p50 ${median(clicks).toFixed(0)}, max ${Math.max(...clicks).toFixed(0)}`,
    );
    console.log(`scroll kept: top ${before} → ${after}, first row ${String(firstRowBefore)} → ${String(firstRowAfter)}`);
    if (TRACE) {
      const { cpuMs, wallMs } = mainThreadTime(join(PROFILES, 'tabs-trace.json'));
      console.log(
        `page main thread over the ${SWITCHES} switches (trace): ${cpuMs.toFixed(0)} ms CPU, ${wallMs.toFixed(0)} ms wall (Playwright's polling included)`,
      );
      // Each switch as the work it cost: the click's task and the frame after it (thread CPU), and
      // how much of the page they styled and laid out.
      const frames = clickFrames(join(PROFILES, 'tabs-trace.json'));
      const stat = (pick: (f: (typeof frames)[number]) => number) => `${median(frames.map(pick)).toFixed(1)} / ${Math.max(...frames.map(pick)).toFixed(1)}`;
      console.log(
        `per switch, p50 / max: click ${stat((f) => f.clickMs)} ms CPU, the frame after it ${stat((f) => f.frameMs)} ms CPU, elements styled ${stat((f) => f.styled)}, layout objects ${stat((f) => f.laidOut)}`,
      );
    }
    if (pageProfile) {
      console.log(`page profile: ${pageProfile}`);
      for (const line of hottest(pageProfile, 25)) console.log(line);
    }
  } finally {
    await context.close();
    await browser.close();
    await host.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (hostProfileDir) {
    const file = readdirSync(hostProfileDir).find((f) => f.endsWith('.cpuprofile'));
    if (file) {
      const target = join(PROFILES, `tabs-host-${Date.now()}.cpuprofile`);
      renameSync(join(hostProfileDir, file), target);
      console.log(`host profile: ${target}`);
      for (const line of hottest(target, 12)) console.log(line);
    }
    rmSync(hostProfileDir, { recursive: true, force: true });
  }
  console.log(`load average at the end: ${load()}`);
}

void main();
