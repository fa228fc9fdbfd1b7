/**
 * The search worker's memory and speed (issue 23, round 8): three saved sessions of `--entries`
 * entries, and the built `searchWorker.js` of each build in `--out` (comma-separated `out`
 * folders), each run in a fresh Node process that starts the worker, has it load the saved index
 * and answer 40 queries. Printed per run: the process's RSS growth (the worker's share of a
 * host's), the worker's heap spaces (used / committed), its collections during the queries, the
 * load's time and the queries' p50 / p95 and slowest of the first ten. Builds alternate run
 * after run, so their figures come from the same minutes of a shared machine.
 *
 *   npm run build && npx tsx bench/searchWorkerMemory.ts [--entries 50000] [--rounds 3] [--out out,node_modules/.bench/outBase] [--young 8]
 *
 * `--young` is the worker's `maxYoungGenerationSizeMb` (the app's is 8, `searchProxy.ts`).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { arg, args, load } from './cliArgs';

const ROOT = resolve(import.meta.dirname, '..');
const QUERIES = ['parser', 'stream', 'folds line', 'nothing waits', 'arriving', 'Question 4711', 'reads each', 'the event', 'state while', 'still'];

async function main(): Promise<void> {
  const entries = Number(arg('--entries', '50000'));
  const rounds = Number(arg('--rounds', '3'));
  const outs = arg('--out', 'out').split(',');
  const young = arg('--young', '8');
  console.log(`search worker: 3 saved sessions of ${entries} entries; ${rounds} rounds; builds ${outs.join(', ')}; load average ${load()}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'acp-bench-worker-'));
  try {
    await saveIndex(dataDir, entries);
    for (let round = 1; round <= rounds; round++) {
      for (const out of outs) {
        const line = execFileSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--child', resolve(ROOT, out), dataDir, young], {
          encoding: 'utf8',
        });
        console.log(`round ${round} ${out.padEnd(30)} ${line.trim()} (load ${load()})`);
      }
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Three long logs and their saved search index, as a host that indexed them leaves it. */
async function saveIndex(dataDir: string, entries: number): Promise<void> {
  // Imported by a computed name: the tools' typecheck (DOM lib) does not compile all of src-main through it.
  const modules = ['../src-main/testing/longLog', '../src-main/sessions/sessionRestore', '../src-main/history/searchIndex'];
  const [{ writeLongLog }, { foldLog }, { SearchIndex }] = (await Promise.all(modules.map((name) => import(name)))) as [
    { writeLongLog(file: string, entries: number, sessionId: string, label: string): number },
    { foldLog(file: string): Promise<{ state: unknown } | null> },
    {
      SearchIndex: new (
        dataDir: string,
        delayMs: number,
      ) => { load(): Promise<void>; indexState(state: unknown, logSize: number, full: boolean): void; idle(): Promise<void>; flush(): void };
    },
  ];
  mkdirSync(join(dataDir, 'sessions'), { recursive: true });
  const index = new SearchIndex(dataDir, 600_000);
  await index.load();
  for (const id of ['s_a', 's_b', 's_c']) {
    const file = join(dataDir, 'sessions', `${id}.jsonl`);
    writeLongLog(file, entries, id, ` ${id}`);
    const folded = await foldLog(file);
    if (!folded) throw new Error(`${file} did not fold`);
    index.indexState(folded.state, statSync(file).size, true);
    await index.idle();
  }
  index.flush();
}

const mb = (bytes: number) => (bytes / 1048576).toFixed(1);
const status = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;

/** One run: this process starts the built worker (no tsx in it) and measures what it adds. */
async function child(outDir: string, dataDir: string, young: number): Promise<void> {
  const before = status('VmRSS');
  const url = pathToFileURL(join(outDir, 'main/searchWorker.js')).href;
  // The worker's own module, plus a listener (added once it is loaded, so "open" reaches the
  // worker's) that answers with V8's heap spaces and the collections seen since the last reset.
  const code = `const { parentPort } = require('node:worker_threads');
const v8 = require('node:v8');
const { PerformanceObserver, constants } = require('node:perf_hooks');
const gcs = { major: 0, minor: 0, majorMs: 0 };
new PerformanceObserver((list) => { for (const e of list.getEntries()) { if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) { gcs.major++; gcs.majorMs += e.duration; } else gcs.minor++; } }).observe({ entryTypes: ['gc'] });
import(${JSON.stringify(url)}).then(() => parentPort.on('message', (m) => {
  if (m.type === 'probe-reset') { Object.assign(gcs, { major: 0, minor: 0, majorMs: 0 }); parentPort.postMessage({ type: 'reply', id: m.id, value: null }); }
  if (m.type === 'probe-stats') parentPort.postMessage({ type: 'reply', id: m.id, value: { gcs: { ...gcs }, spaces: v8.getHeapSpaceStatistics() } });
}));`;
  const worker = new Worker(code, { eval: true, execArgv: [], resourceLimits: { maxYoungGenerationSizeMb: young } });
  let next = 1;
  const waiting = new Map<number, (value: unknown) => void>();
  worker.on('message', (message: { type: string; id?: number; value?: unknown; message?: string }) => {
    if (message.type === 'failed') throw new Error(message.message);
    if (message.type === 'reply' && message.id !== undefined) waiting.get(message.id)?.(message.value);
  });
  const ask = <T>(request: Record<string, unknown>) =>
    new Promise<T>((resolve) => {
      const id = next++;
      waiting.set(id, resolve as (value: unknown) => void);
      worker.postMessage({ ...request, id });
    });
  worker.postMessage({ type: 'open', dataDir });
  const start = performance.now();
  await ask({ type: 'loadManifest' });
  await ask({ type: 'load' });
  const loadMs = performance.now() - start;
  await ask({ type: 'probe-reset' });
  const times: number[] = [];
  for (let round = 0; round < 4; round++) {
    for (const text of QUERIES) {
      const asked = performance.now();
      await ask({ type: 'query', text, limit: 50 });
      times.push(performance.now() - asked);
    }
  }
  const firstTen = Math.max(...times.slice(0, 10));
  const stats = await ask<{
    gcs: { major: number; minor: number; majorMs: number };
    spaces: { space_name: string; space_used_size: number; space_size: number }[];
  }>({
    type: 'probe-stats',
  });
  // What the bench's RSS row would read a moment after a search: no collection forced.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const grown = status('VmRSS') - before;
  times.sort((a, b) => a - b);
  const spaces = stats.spaces
    .filter((space) => space.space_size > 0.5 * 1048576)
    .map((space) => `${space.space_name.replace(/_space$/, '')} ${mb(space.space_used_size)}/${mb(space.space_size)}`)
    .join(' ');
  console.log(
    `RSS +${grown.toFixed(1)} MB; load ${loadMs.toFixed(0)} ms; query p50 ${times[20].toFixed(1)} p95 ${times[38].toFixed(1)} ms, first ten's slowest ${firstTen.toFixed(1)} ms; ` +
      `major GCs in the queries ${stats.gcs.major} (${stats.gcs.majorMs.toFixed(0)} ms), minor ${stats.gcs.minor}; heap MB used/committed: ${spaces}`,
  );
  await worker.terminate();
  process.exit(0);
}

if (args[0] === '--child') await child(args[1], args[2], Number(args[3]));
else await main();
