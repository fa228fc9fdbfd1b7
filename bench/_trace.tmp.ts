import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { writeLongLog } from '../src-main/testing/longLog';
import { startHost } from './host';
import { BENCH_AGENT } from './cliArgs';

const SESSIONS = ['s_bench_a', 's_bench_b', 's_bench_c'];
const dataDir = mkdtempSync(join(tmpdir(), 'acp-trace-'));
const newest: string[] = [];
for (const name of ['a', 'b', 'c']) {
  const id = `s_bench_${name}`;
  writeLongLog(join(dataDir, 'sessions', `${id}.jsonl`), 1000, id, ` [${name}]`);
  newest.push(`Question ${Math.ceil(1000 / 4) - 1} [${name}]`);
}
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
async function load(i: number, trace: boolean) {
  writeFileSync(join(dataDir, 'sessions', 'tabs.json'), JSON.stringify({ open: SESSIONS, active: SESSIONS[0] }));
  const host = await startHost({ agents: [BENCH_AGENT] }, { dataDir, keepData: true });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await page.addInitScript(`(() => { const w = ${JSON.stringify(newest[0])}; const tick = () => { const log = document.querySelector('#first-paint, [role="log"]'); if (log && log.textContent.includes(w)) { window.shownRaf = performance.now(); return; } requestAnimationFrame(tick); }; requestAnimationFrame(tick); })()`);
  const events: any[] = [];
  if (trace) {
    cdp.on('Tracing.dataCollected', (e: any) => events.push(...e.value));
    await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline,blink,loading,toplevel,v8,fonts', transferMode: 'ReportEvents' } as any);
  }
  await page.goto(host.url);
  await page.waitForFunction('window.shownRaf !== undefined', undefined, { timeout: 60000 });
  await page.waitForTimeout(1500);
  const r = await page.evaluate(`({ raf: window.shownRaf, fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime, resp: performance.getEntriesByType('navigation')[0].responseEnd, inter: performance.getEntriesByType('navigation')[0].domInteractive, shell: !!document.querySelector('#first-paint-shell') })`);
  console.log(i, JSON.stringify(r));
  if (trace) {
    const done = new Promise((res) => cdp.once('Tracing.tracingComplete', res));
    await cdp.send('Tracing.end');
    await done;
    writeFileSync(`/tmp/tr/t${i}.json`, JSON.stringify({ traceEvents: events }));
  }
  await context.close();
  await host.stop();
}
for (let i = 0; i < Number(process.env.N ?? 5); i++) await load(i, i >= 2);
await browser.close();
