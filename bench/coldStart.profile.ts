/**
 * Cold start, taken apart (issue 23): host start → the page shows the agent list, for one or more
 * builds (`--out <folder>`, repeatable; default `out/`) against the floor of `npm run bench` (a
 * trivial Node server, its own process, and its page), interleaved rounds, medians. Each figure
 * is split into the host's part (spawn → "serving at") and the page's (navigation → the agent
 * list's first "New session with …" button), and each build's start bundle is printed (what
 * index.html loads: raw, and brotli as the host serves it). `--entries N` also leaves a session
 * of N entries open in a tab, as `npm run bench` does (`--tabs 3`: three, the first active), and
 * then prints "open" too: host ready → the active tab's newest entry shown (in the first paint or the app's
 * transcript), and "app": host ready → the app's own transcript shows it.
 *
 *   npm run build && npx tsx bench/coldStart.profile.ts [--rounds 5] [--out out --out /other/out] [--entries 0]
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Browser } from 'playwright-core';
import { launchBenchBrowser } from './browser';
import { writeLongLog } from '../src-main/testing/longLog';
import { startHost } from './host';
import { AGENT_LIST_SHOWN, floorServer, startBundle, watchShown } from './longBrowser';
import { median } from './longNode';
import { arg, args, BENCH_AGENT, load } from './cliArgs';

const ROOT = resolve(import.meta.dirname, '..');
const ROUNDS = Number(arg('--rounds', '5'));
const ENTRIES = Number(arg('--entries', '0'));
const TABS = Number(arg('--tabs', '1'));
/** The newest entry's text in the active tab (writeLongLog's last question). */
const NEWEST = `Question ${Math.ceil(ENTRIES / 4) - 1} [0]`;
const OUTS = args.flatMap((a, i) => (a === '--out' && args[i + 1] ? [resolve(args[i + 1])] : []));
if (OUTS.length === 0) OUTS.push(join(ROOT, 'out'));

interface Round {
  host: number;
  page: number;
  total: number;
  /** Host ready → the active tab's newest entry shown: in the first paint or the app's transcript (with `--entries`). */
  open?: number;
  /** Host ready → the app's own transcript shows it. */
  openApp?: number;
  /** The host's CPU time (all its threads) from ready to the agent list shown: what the page's first frame shared the cores with. */
  hostCpu?: number;
}

/** A process's CPU time so far, ms (Linux: utime + stime, in clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function appRound(browser: Browser, out: string, dataDir: string): Promise<Round> {
  process.env.BENCH_OUT = out;
  const spawned = performance.now();
  const host = await startHost({ agents: [BENCH_AGENT] }, { dataDir, keepData: true });
  const ready = performance.now();
  const cpuAtReady = cpuMs(host.process.pid!);
  // Sampled as it goes: the list's moment is known (stamped in the page) only after Playwright's wait.
  const cpuSamples: [number, number][] = [];
  const sampler = setInterval(() => cpuSamples.push([performance.now(), cpuMs(host.process.pid!)]), 5);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  try {
    const shownAt = await watchShown(page, {
      list: { selector: AGENT_LIST_SHOWN, texts: [] },
      ...(ENTRIES > 0 ? { open: { selector: '#first-paint, [role="log"]', texts: [NEWEST] }, app: { selector: '[role="log"]', texts: [NEWEST] } } : {}),
    });
    await page.goto(host.url);
    // Stamped in the page and read without Playwright's script in it (longBrowser.ts, watchShown).
    const shown = await shownAt('list');
    clearInterval(sampler);
    const hostCpu = (cpuSamples.findLast(([t]) => t <= shown)?.[1] ?? cpuAtReady) - cpuAtReady;
    const open = ENTRIES > 0 ? (await shownAt('open')) - ready : undefined;
    const openApp = ENTRIES > 0 ? (await shownAt('app')) - ready : undefined;
    return { host: ready - spawned, page: shown - ready, total: shown - spawned, open, openApp, hostCpu };
  } finally {
    clearInterval(sampler);
    await context.close();
    await host.stop();
  }
}

async function floorRound(browser: Browser, dataDir: string): Promise<Round> {
  const spawned = performance.now();
  const server = await floorServer(dataDir);
  const ready = performance.now();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  try {
    const shownAt = await watchShown(page, { list: { selector: '[role="log"]', texts: ['ready'] } });
    await page.goto(server.url);
    const shown = await shownAt('list');
    return { host: ready - spawned, page: shown - ready, total: shown - spawned };
  } finally {
    await context.close();
    server.stop();
  }
}

async function main(): Promise<void> {
  console.log(`cold start: ${OUTS.length} build(s), ${ROUNDS} rounds interleaved, medians; ${TABS} × ${ENTRIES} entries open; load average ${load()}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'acp-bench-cold-'));
  mkdirSync(join(dataDir, 'sessions'), { recursive: true });
  if (ENTRIES > 0) {
    const ids = Array.from({ length: TABS }, (_, i) => `s_cold${i}`);
    ids.forEach((id, i) => writeLongLog(join(dataDir, 'sessions', `${id}.jsonl`), ENTRIES, id, ` [${i}]`));
    writeFileSync(join(dataDir, 'sessions', 'tabs.json'), JSON.stringify({ open: ids, active: ids[0] }));
  }
  const browser = await launchBenchBrowser();
  const rounds = new Map<string, Round[]>([...OUTS, 'floor'].map((k) => [k, []]));
  try {
    // One unmeasured start of each: the file cache warm for all alike.
    for (const out of OUTS) await appRound(browser, out, dataDir);
    await floorRound(browser, dataDir);
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? [...OUTS, 'floor'] : ['floor', ...[...OUTS].reverse()];
      for (const which of order) rounds.get(which)!.push(which === 'floor' ? await floorRound(browser, dataDir) : await appRound(browser, which, dataDir));
    }
  } finally {
    await browser.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const floorTotal = median(rounds.get('floor')!.map((r) => r.total));
  console.log(
    `${'build'.padEnd(44)} ${'host ready'.padStart(10)} ${'page → list'.padStart(12)} ${'total'.padStart(8)} ${'vs floor'.padStart(9)} ${'open'.padStart(6)} ${'app'.padStart(6)} ${'host CPU'.padStart(9)}  start bundle raw / brotli`,
  );
  for (const [which, list] of rounds) {
    const m = (f: (r: Round) => number) => median(list.map(f)).toFixed(0);
    const size = which === 'floor' ? '' : (({ raw, served }) => `${(raw / 1024).toFixed(0)} KB / ${(served / 1024).toFixed(0)} KB`)(startBundle(which));
    const ratio = (median(list.map((r) => r.total)) / floorTotal).toFixed(2);
    const open = which === 'floor' || ENTRIES === 0 ? '' : m((r) => r.open ?? NaN);
    const openApp = which === 'floor' || ENTRIES === 0 ? '' : m((r) => r.openApp ?? NaN);
    console.log(
      `${which.replace(ROOT + '/', '').padEnd(44)} ${m((r) => r.host).padStart(10)} ${m((r) => r.page).padStart(12)} ${m((r) => r.total).padStart(8)} ${ratio.padStart(9)} ${open.padStart(6)} ${openApp.padStart(6)} ${(which === 'floor' ? '' : m((r) => r.hostCpu ?? NaN)).padStart(9)}  ${size}`,
    );
  }
  console.log(`load average at the end: ${load()}`);
}

void main();
