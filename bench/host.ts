/**
 * The browser host (`out/main/cli.js serve`) for the benchmarks: started on a free port, stopped
 * and cleaned up. `BENCH_OUT` points at another build's `out` folder (to compare two builds).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Page } from 'playwright-core';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = resolve(import.meta.dirname, '..');

export interface Host {
  url: string;
  process: ChildProcess;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * Starts the host with `settings` in a fresh data folder (or `dataDir`, prepared by the caller,
 * removed on stop unless `keepData`); `profileDir` runs it under `node --cpu-prof`.
 */
export async function startHost(settings: unknown, options: { dataDir?: string; profileDir?: string; keepData?: boolean } = {}): Promise<Host> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'acp-bench-data-'));
  // A prepared data folder comes back with the same workspace, as a person starting the app again
  // does (the page's cached start says which folder new sessions are offered).
  const workspace = options.dataDir ? join(options.dataDir, 'workspace') : mkdtempSync(join(tmpdir(), 'acp-bench-ws-'));
  mkdirSync(workspace, { recursive: true });
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify(settings));
  const nodeArgs = options.profileDir ? ['--cpu-prof', '--cpu-prof-dir', options.profileDir] : [];
  // What a V8 flag would change (e.g. BENCH_HOST_NODE_ARGS=--max-semi-space-size=1): the host's node only.
  nodeArgs.unshift(...(process.env.BENCH_HOST_NODE_ARGS ?? '').split(' ').filter(Boolean));
  // BENCH_MEM_DETAIL: the host answers SIGUSR2 with its main thread's heap spaces (memProbe.mjs).
  if (process.env.BENCH_MEM_DETAIL) nodeArgs.unshift('--import', pathToFileURL(join(ROOT, 'bench/memProbe.mjs')).href);
  const child = spawn(
    process.execPath,
    [...nodeArgs, join(process.env.BENCH_OUT ?? join(ROOT, 'out'), 'main/cli.js'), 'serve', '--port', '0', '--data-dir', dataDir, '--cwd', workspace],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (output += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (output += d));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`host did not start:\n${output}`)), 30_000);
    child.stdout!.on('data', () => {
      const match = /serving at (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    });
  });
  return {
    url,
    process: child,
    dataDir,
    stop: () =>
      new Promise<void>((done) => {
        child.once('exit', () => {
          if (!options.keepData) rmSync(dataDir, { recursive: true, force: true });
          if (!options.keepData || !options.dataDir) rmSync(workspace, { recursive: true, force: true });
          done();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** A process's resident set size, MB (Linux). */
export function rssMB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/**
 * Where a process's RSS is (BENCH_MEM_DETAIL=1): anonymous and file-backed totals, and the
 * largest mappings by their resident size (V8's heap spaces and malloc's arenas are anonymous;
 * node's own code is file-backed).
 */
export function rssDetail(pid: number): string {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => (Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024).toFixed(1);
  const maps: { name: string; rss: number }[] = [];
  let current = '';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) current = header[1] || '[anon]';
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) maps.push({ name: current, rss: Number(rss[1]) / 1024 });
  }
  const byName = new Map<string, { rss: number; count: number }>();
  for (const { name, rss } of maps) {
    const key = name.replace(/.*\/node_modules\//, 'node_modules/');
    const entry = byName.get(key) ?? { rss: 0, count: 0 };
    entry.rss += rss;
    entry.count++;
    byName.set(key, entry);
  }
  const anonSizes = maps
    .filter((m) => m.name === '[anon]')
    .map((m) => m.rss)
    .sort((a, b) => b - a);
  return (
    `RssAnon ${field('RssAnon')} RssFile ${field('RssFile')} MB; threads ${/Threads:\s+(\d+)/.exec(status)?.[1]}; ` +
    [...byName]
      .sort((a, b) => b[1].rss - a[1].rss)
      .slice(0, 6)
      .map(([name, { rss, count }]) => `${name} ${rss.toFixed(1)} (${count})`)
      .join(', ') +
    `; largest anonymous mappings ${anonSizes
      .slice(0, 8)
      .map((r) => r.toFixed(1))
      .join(' ')}`
  );
}

/** CPU time a process has used so far, ms (Linux: utime + stime from /proc, 10 ms steps). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** Opens a new session with `agentName` from the page's agent list, and waits until it is idle. */
export async function newSession(page: Page, agentName: string): Promise<void> {
  await page.getByRole('button', { name: `New session with ${agentName}` }).click();
  const dialog = page.getByRole('dialog', { name: 'New session' });
  await dialog.getByLabel('Workspace folder').fill(tmpdir());
  await dialog.getByRole('button', { name: 'Start' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page.waitForFunction(`document.querySelector('[aria-label="Session status"]')?.textContent === 'Idle'`, undefined, { timeout: 30_000 });
}

/** The host's main thread, as `memProbe.mjs` reports it on SIGUSR2 (no GC forced): now, and its samples since the last report (MB). */
export async function mainThreadMemory(pid: number): Promise<string> {
  const file = join(tmpdir(), `acp-mem-probe-${pid}.json`);
  rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let waited = 0; !existsSync(file); waited += 20) {
    if (waited > 5_000) return 'main thread: no answer from memProbe.mjs';
    await new Promise((r) => setTimeout(r, 20));
  }
  type Sample = { t: number; memory: NodeJS.MemoryUsage; spaces: Record<string, { size: number; used: number; physical: number }> };
  const probe = JSON.parse(readFileSync(file, 'utf8')) as { now: Sample; samples: Sample[] };
  rmSync(file, { force: true });
  const mb = (n: number) => (n / 1048576).toFixed(1);
  const line = ({ t, memory, spaces }: Sample) =>
    `${(t / 1000).toFixed(2).padStart(7)} s rss ${mb(memory.rss).padStart(6)} heap ${mb(memory.heapUsed).padStart(6)}/${mb(memory.heapTotal).padStart(6)} ` +
    Object.entries(spaces)
      .map(([name, s]) => `${name} ${mb(s.used)}/${mb(s.size)}`)
      .join(' ');
  // The samples where the committed heap or the RSS changed by 2 MB or more.
  const shown: string[] = [];
  let last: Sample | undefined;
  for (const s of probe.samples) {
    if (!last || Math.abs(s.memory.heapTotal - last.memory.heapTotal) >= 2 << 20 || Math.abs(s.memory.rss - last.memory.rss) >= 2 << 20) {
      shown.push(`    ${line(s)}`);
      last = s;
    }
  }
  return `main thread now:${line(probe.now)}\n${shown.join('\n')}`;
}

/**
 * BENCH_MEM_DETAIL: where the host's RSS is now (`rssDetail`, the main thread's heap spaces), and
 * with BENCH_MEM_QUIET=1 again after 5, 10 and 20 s with nothing asked (V8's memory reducer
 * runs on an idle isolate by itself). Diagnostic only: the quiet wait moves the RSS row's read.
 */
export async function memoryOverTime(pid: number): Promise<void> {
  const at = async (label: string) => console.log(`host memory ${label}: RSS ${rssMB(pid).toFixed(1)} MB; ${rssDetail(pid)}\n  ${await mainThreadMemory(pid)}`);
  await at('when read');
  if (!process.env.BENCH_MEM_QUIET) return;
  let waited = 0;
  for (const seconds of [5, 10, 20]) {
    await new Promise((r) => setTimeout(r, (seconds - waited) * 1000));
    waited = seconds;
    await at(`${seconds} s quiet`);
  }
}
