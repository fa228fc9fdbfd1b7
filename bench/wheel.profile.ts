/**
 * Where wheel scrolling's time goes (issue 23, round 5): one session of N entries (default
 * 10,000; `--content mixed` for code blocks and terminals) open in the browser host in Chromium,
 * scrolled up by 100 wheel steps of 800 px, each followed by a frame (as `npm run bench` does).
 * Prints the time of the steps and the p95 frame, for each build given (`--out a,b`: build
 * folders, rounds interleaved; `floor` for the benchmark's floor page), and with `--profile` writes a CDP CPU profile of the page over the
 * steps to bench/profiles/ and prints its hottest functions (`RENDERER_MINIFY=0 npm run build`
 * first for readable names).
 *
 *   npm run build && npx tsx bench/wheel.profile.ts [--entries 10000] [--content mixed] [--rounds 3] [--out out,node_modules/.bench/outBase] [--profile]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser } from 'playwright-core';
import { launchBenchBrowser } from './browser';
import { writeLongLog } from '../src-main/testing/longLog';
import { startHost } from './host';
import { floorServer, wheel } from './longBrowser';
import { median } from './longNode';
import { hottest, mainThreadTime, traceSummary } from './profileSummary';
import { arg, args, BENCH_AGENT, load } from './cliArgs';

const ROOT = resolve(import.meta.dirname, '..');
const ENTRIES = Number(arg('--entries', '10000'));
const ROUNDS = Number(arg('--rounds', '1'));
const CONTENT = arg('--content', 'prose') === 'mixed' ? 'mixed' : 'prose';
const OUTS = arg('--out', join(ROOT, 'out')).split(',');
const PROFILE = args.includes('--profile');
const TRACE = args.includes('--trace');
const PROFILES = join(ROOT, 'bench/profiles');

async function round(browser: Browser, dataDir: string, newest: string, out: string): Promise<{ ms: number; p95: number; cpuMs: number; profile?: string }> {
  process.env.BENCH_OUT = out;
  // `floor`: the benchmark's floor page (the log's entries as plain text, all in the DOM).
  const host = out === 'floor' ? await floorServer(dataDir) : await startHost({ agents: [BENCH_AGENT] }, { dataDir, keepData: true });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  try {
    await page.goto(out === 'floor' ? `${host.url}#s_wheel` : host.url);
    await page.waitForFunction(`document.querySelector('[role="log"]')?.textContent?.includes(${JSON.stringify(newest)})`, undefined, {
      timeout: 300_000,
      polling: 16,
    });
    if (out === 'floor') await page.evaluate('window.showAll()');
    await page.waitForTimeout(1500);
    const cdp = await context.newCDPSession(page);
    if (PROFILE) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    let cpuMs = NaN;
    if (TRACE) {
      mkdirSync(PROFILES, { recursive: true });
      await browser.startTracing(page, { path: join(PROFILES, 'wheel-trace.json'), categories: ['devtools.timeline', 'blink.user_timing'] });
    }
    // The benchmark's own wheel loop, so the profile times what `npm run bench` does.
    const { ms, frameP95 } = await wheel(page);
    if (TRACE) {
      await browser.stopTracing();
      cpuMs = mainThreadTime(join(PROFILES, 'wheel-trace.json')).cpuMs;
      if (args.includes('--events')) for (const line of traceSummary(join(PROFILES, 'wheel-trace.json'))) console.log(`    ${line}`);
    }
    let profile: string | undefined;
    if (PROFILE) {
      const result = (await cdp.send('Profiler.stop')) as { profile: unknown };
      mkdirSync(PROFILES, { recursive: true });
      profile = join(PROFILES, `wheel-page-${Date.now()}.cpuprofile`);
      writeFileSync(profile, JSON.stringify(result.profile));
    }
    return { ms, p95: frameP95, cpuMs, profile };
  } finally {
    await context.close();
    if ('process' in host) await host.stop();
    else host.stop();
  }
}

async function main(): Promise<void> {
  console.log(`wheel scroll, ${ENTRIES} entries (${CONTENT}), ${ROUNDS} round(s) × ${OUTS.join(' | ')}; load average ${load()}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'acp-bench-wheel-'));
  const sessionId = 's_wheel';
  writeLongLog(join(dataDir, 'sessions', `${sessionId}.jsonl`), ENTRIES, sessionId, '', CONTENT);
  writeFileSync(join(dataDir, 'sessions', 'tabs.json'), JSON.stringify({ open: [sessionId], active: sessionId }));
  const newest = `Question ${Math.ceil(ENTRIES / 4) - 1}:`;
  const browser = await launchBenchBrowser();
  const results = new Map<string, { ms: number; p95: number; cpuMs: number }[]>(OUTS.map((out) => [out, []]));
  try {
    // One unmeasured start: the first open folds the log and leaves its snapshot.
    await round(browser, dataDir, newest, OUTS[0]);
    for (let r = 0; r < ROUNDS; r++)
      for (const out of OUTS) {
        const result = await round(browser, dataDir, newest, out);
        results.get(out)!.push(result);
        console.log(
          `  ${out}: ${result.ms.toFixed(0)} ms, p95 frame ${result.p95.toFixed(1)} ms, page main thread CPU ${result.cpuMs.toFixed(0)} ms (load ${load()})`,
        );
        if (result.profile) {
          console.log(`  profile ${result.profile}`);
          for (const line of hottest(result.profile, 25)) console.log(`    ${line}`);
        }
      }
  } finally {
    await browser.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  for (const [out, rows] of results)
    console.log(
      `${out}: median ${median(rows.map((r) => r.ms)).toFixed(0)} ms, p95 frame ${median(rows.map((r) => r.p95)).toFixed(1)} ms, main thread CPU ${median(rows.map((r) => r.cpuMs)).toFixed(0)} ms`,
    );
  console.log(`load average ${load()}`);
}

await main();
