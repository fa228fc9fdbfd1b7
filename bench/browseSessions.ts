/**
 * The browser half of `npm run bench`: two sessions of `entries` entries each, open in two tabs
 * of the browser host, driven in Chromium. Prints the time to show the first, the frame gaps
 * while scrolling it (wheel, then jumps to the top and the middle), and the time a tab switch
 * takes to show the other session's newest entry (cold, then warm).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { startHost } from './host';

const ROOT = resolve(import.meta.dirname, '..');

export interface Seeded {
  sessionId: string;
  /** Text only this session's newest turn shows. */
  newest: string;
}

export async function browseSessions(dataDir: string, sessions: [Seeded, Seeded]): Promise<void> {
  if (!existsSync(join(ROOT, 'out/main/cli.js'))) {
    console.log('(browser part skipped: run `npm run build` first)');
    return;
  }
  mkdirSync(join(dataDir, 'sessions'), { recursive: true });
  writeFileSync(join(dataDir, 'sessions', 'tabs.json'), JSON.stringify({ open: sessions.map((s) => s.sessionId), active: sessions[0].sessionId }));
  const agent = { id: 'bench', name: 'Bench Agent', command: process.execPath, args: [join(ROOT, 'e2e/fixtures/flood-agent.mjs')] };
  const step = (what: string) => process.env.BENCH_DEBUG && console.log(`  … ${what}`);
  const host = await startHost({ agents: [agent] }, { dataDir });
  step('host started');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium' });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  page.setDefaultTimeout(Number(process.env.BENCH_WAIT_MS ?? 300_000));
  const shows = (text: string) =>
    page.waitForFunction(`document.querySelector('[role="log"]')?.textContent?.includes(${JSON.stringify(text)})`, undefined, {
      timeout: 300_000,
      polling: 16,
    });
  try {
    let start = performance.now();
    await page.goto(host.url);
    await shows(sessions[0].newest);
    step('first session shown');
    const openMs = performance.now() - start;

    // Frame gaps and long tasks while scrolling.
    await page.evaluate(`(() => {
      window.benchFrames = [];
      window.benchTasks = [];
      window.benchRunning = true;
      new PerformanceObserver((list) => { for (const e of list.getEntries()) window.benchTasks.push(e.duration); }).observe({ type: 'longtask' });
      let last = performance.now();
      const tick = (now) => { window.benchFrames.push(now - last); last = now; if (window.benchRunning) requestAnimationFrame(tick); };
      requestAnimationFrame(tick);
    })()`);
    const log = page.getByRole('log', { name: 'Transcript' });
    await log.hover();
    for (let i = 0; i < 60; i++) {
      await page.mouse.wheel(0, -1500);
      await page.waitForTimeout(16);
    }
    await log.evaluate((el) => (el.scrollTop = 0));
    await page.waitForTimeout(300);
    await log.evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
    await page.waitForTimeout(300);
    const scroll = (await page.evaluate('(window.benchRunning = false, { frames: window.benchFrames.slice(1), tasks: window.benchTasks })')) as {
      frames: number[];
      tasks: number[];
    };
    const sorted = [...scroll.frames].sort((a, b) => a - b);
    const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
    const rows = await log.locator('.row').count();

    // Tab switches: to the other session (its first showing), back, and to it again.
    step('scrolled');
    // Back to the newest entry before switching, so that each switch ends when the newest entry
    // shows. A tab left mid-session comes back mid-session (its scroll position is kept), so its
    // newest entry never renders and the wait below would never end (it is not a freeze: with
    // BENCH_STAY_IN_MIDDLE the page answers in milliseconds, showing the rows it was left at).
    if (!process.env.BENCH_STAY_IN_MIDDLE) await log.evaluate((el) => (el.scrollTop = el.scrollHeight));
    const tabs = page.getByRole('tablist', { name: 'Open sessions' }).getByRole('tab');
    const switches: number[] = [];
    for (const [index, target] of [
      [1, sessions[1]],
      [0, sessions[0]],
      [1, sessions[1]],
    ] as const) {
      start = performance.now();
      await tabs.nth(index).click();
      await shows(target.newest);
      switches.push(performance.now() - start);
      step(`switched to ${target.sessionId}`);
    }
    const heap = (await page.evaluate('performance.memory ? performance.memory.usedJSHeapSize : 0')) as number;

    console.log('');
    console.log(`browser host, Chromium: two sessions in two tabs`);
    console.log(`  open (page load to the newest entry shown)   ${openMs.toFixed(0)} ms`);
    console.log(
      `  scroll: ${scroll.frames.length} frames; median ${pct(50).toFixed(1)} ms, p95 ${pct(95).toFixed(1)} ms, largest gap ${sorted.at(-1)?.toFixed(0)} ms; ` +
        `frames over 50 ms: ${scroll.frames.filter((f) => f > 50).length}; longest task ${Math.max(0, ...scroll.tasks).toFixed(0)} ms; rows in the DOM after: ${rows}`,
    );
    console.log(
      `  tab switch to the newest entry shown: first ${switches[0].toFixed(0)} ms, back ${switches[1].toFixed(0)} ms, again ${switches[2].toFixed(0)} ms`,
    );
    console.log(`  page JS heap after: ${(heap / 1024 / 1024).toFixed(1)} MB`);
  } catch (error) {
    await page.screenshot({ path: '/tmp/x/browse-fail.png' }).catch(() => {});
    throw error;
  } finally {
    await browser.close();
    await host.stop();
  }
}
