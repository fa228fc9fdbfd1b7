/**
 * The Node half of `npm run bench`: what main does to open and search long sessions, each next
 * to a floor measured in the same run (interleaved rounds, medians).
 */
import MiniSearch from 'minisearch';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { SessionEvent } from '../src-shared/session/events';
import { reduceSession } from '../src-shared/session/reducer';
import { SearchIndex } from '../src-main/history/searchIndex';
import { SearchProxy } from '../src-main/history/searchProxy';
import { foldLog } from '../src-main/sessions/sessionRestore';
import { snapshotFile } from '../src-main/store/logSnapshot';

export interface Row {
  figure: string;
  app: number;
  floor: number;
  unit: string;
  /** The goal, as a ratio to the floor (`ratio`) or an absolute bound (`max`). */
  goal: { ratio?: number; max?: number };
}

const QUERIES = ['parser stream', 'folds', 'Question 1234', 'nothing waits', 'arriving', 'fil', 'line event', 'stat', 'Edit file7', 'reads each line'];

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** The floor for opening: the whole file read at once, parsed, folded (no streaming, no snapshot). */
function wholeFile(file: string): number {
  const start = performance.now();
  const text = readFileSync(file, 'utf8');
  const all = JSON.parse(`[${text.trimEnd().split('\n').join(',')}]`) as SessionEvent[];
  reduceSession(undefined, all);
  return performance.now() - start;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

/** Open and search figures for three logs of one size. */
export async function nodeFigures(dataDir: string, logs: string[], runs: number): Promise<Row[]> {
  const cold: number[] = [];
  const warm: number[] = [];
  const floor: number[] = [];
  for (let run = 0; run < runs; run++) {
    // Interleaved: floor, app (no snapshot), app (snapshot), floor…
    floor.push(wholeFile(logs[0]));
    rmSync(snapshotFile(logs[0]), { force: true });
    cold.push(await timed(() => foldLog(logs[0]))); // leaves a snapshot
    warm.push(await timed(() => foldLog(logs[0])));
    floor.push(wholeFile(logs[0]));
  }

  // Search: three sessions indexed; the app's query next to MiniSearch's own search() over the same indexes.
  const index = new SearchIndex(dataDir, 600_000);
  for (const log of logs) {
    const folded = await foldLog(log);
    index.indexState(folded!.state, 1, true);
  }
  await index.idle();
  index.flush();
  const minis = (index as unknown as { sessions: Map<string, { mini: MiniSearch<object> }> }).sessions;
  const appQuery: number[] = [];
  const miniQuery: number[] = [];
  // One unmeasured pass: compiled code and the length caches, as after the first search of a session.
  for (const query of QUERIES) await index.query(query, 50);
  for (let run = 0; run < runs; run++) {
    for (const query of QUERIES) {
      appQuery.push(await timed(() => index.query(query, 50)));
      miniQuery.push(
        await timed(async () => {
          for (const { mini } of minis.values()) mini.search(query).slice(0, 50);
        }),
      );
    }
  }
  // A restart with nothing changed: load the saved index, count what is indexed again; next to
  // what the app did before (each session's MiniSearch JSON through loadJSONAsync), interleaved,
  // with the longest the event loop waited meanwhile.
  const oldFiles = [...minis.entries()].map(([sessionId, { mini }]) => {
    const file = join(dataDir, `old-${sessionId}.json`);
    writeFileSync(file, JSON.stringify(mini));
    return file;
  });
  const options = { idField: 'id', fields: ['text'], storeFields: ['sessionId', 'entryId', 'kind', 'text'] };
  const blocked = async (work: () => Promise<unknown>) => {
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    // The monitor measures from its timer's first run: a block before it would go unseen.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const ms = await timed(work);
    // A block that ends the work is recorded when the monitor's timer next runs: let it.
    await new Promise((resolve) => setTimeout(resolve, 5));
    delay.disable();
    return { ms, block: delay.max / 1e6 };
  };
  const appLoad: { ms: number; block: number }[] = [];
  const oldLoad: { ms: number; block: number }[] = [];
  let reindexed = 0;
  const manifestMs: number[] = [];
  // The app since round 3: the same load and queries in the search worker (SearchProxy), each
  // round next to the in-process index above; the block is the host's event loop's longest wait.
  const workerLoad: { ms: number; block: number }[] = [];
  const workerQuery: number[] = [];
  // Indexing one 50,000-entry session from scratch (a first start, a version change): the host's
  // longest wait with the index in the worker, next to the in-process index, each round.
  const workerBuild: { ms: number; block: number }[] = [];
  const inProcessBuild: { ms: number; block: number }[] = [];
  const firstState = (await foldLog(logs[0]))!.state;
  const inProcessQuery: number[] = [];
  for (let run = 0; run < runs; run++) {
    const proxy = new SearchProxy(dataDir);
    workerLoad.push(await blocked(() => proxy.loadManifest().then(() => proxy.load())));
    for (const query of QUERIES) await proxy.query(query, 50); // unmeasured, as above
    for (const query of QUERIES) {
      workerQuery.push(await timed(() => proxy.query(query, 50)));
      inProcessQuery.push(await timed(() => index.query(query, 50)));
    }
    await proxy.dispose();
    const builder = new SearchProxy(mkdtempSync(join(tmpdir(), 'bench-build-')));
    await builder.loadManifest();
    workerBuild.push(
      await blocked(async () => {
        builder.indexState(firstState, 1, true);
        await builder.idle();
      }),
    );
    await builder.dispose();
    const inProcess = new SearchIndex(mkdtempSync(join(tmpdir(), 'bench-build-')), 600_000);
    await inProcess.loadManifest();
    inProcessBuild.push(
      await blocked(async () => {
        inProcess.indexState(firstState, 1, true);
        await inProcess.idle();
      }),
    );
    // What the history list waits for at start: the manifest (the indexes load in the background).
    manifestMs.push(await timed(() => new SearchIndex(dataDir, 600_000).loadManifest()));
    const again = new SearchIndex(dataDir, 600_000);
    appLoad.push(await blocked(() => again.load()));
    reindexed = again.indexedDocuments;
    oldLoad.push(
      await blocked(async () => {
        for (const file of oldFiles) await MiniSearch.loadJSONAsync(await readFile(file, 'utf8'), options);
      }),
    );
  }

  return [
    { figure: 'main: open, no snapshot (ms)', app: median(cold), floor: median(floor), unit: 'ms', goal: {} },
    { figure: 'main: open, from its snapshot (ms)', app: median(warm), floor: median(floor), unit: 'ms', goal: { ratio: 1.5 } },
    {
      figure: 'search p95, 3 sessions (ms; floor: MiniSearch search())',
      app: percentile(appQuery, 95),
      floor: percentile(miniQuery, 95),
      unit: 'ms',
      goal: { max: 30 },
    },
    {
      figure: `search index load at restart (ms; ${reindexed} re-indexed)`,
      app: median(appLoad.map((r) => r.ms)),
      floor: median(oldLoad.map((r) => r.ms)),
      unit: 'ms',
      goal: {},
    },
    { figure: 'search index manifest at restart (ms; the list waits for it)', app: median(manifestMs), floor: NaN, unit: 'ms', goal: {} },
    {
      figure: 'search index load: longest event-loop block (ms)',
      app: median(appLoad.map((r) => r.block)),
      floor: median(oldLoad.map((r) => r.block)),
      unit: 'ms',
      goal: {},
    },
    {
      figure: 'search p95 in the worker, 3 sessions (ms; floor: in-process query)',
      app: percentile(workerQuery, 95),
      floor: percentile(inProcessQuery, 95),
      unit: 'ms',
      goal: { max: 30 },
    },
    {
      figure: 'search index load in the worker, from spawn (ms; floor: in-process load)',
      app: median(workerLoad.map((r) => r.ms)),
      floor: median(appLoad.map((r) => r.ms)),
      unit: 'ms',
      goal: {},
    },
    {
      figure: 'index one session from scratch: longest host block (ms; floor: in-process)',
      app: median(workerBuild.map((r) => r.block)),
      floor: median(inProcessBuild.map((r) => r.block)),
      unit: 'ms',
      goal: {},
    },
    {
      figure: 'worker load: longest host event-loop block (ms; floor: in-process load)',
      app: median(workerLoad.map((r) => r.block)),
      floor: median(appLoad.map((r) => r.block)),
      unit: 'ms',
      goal: {},
    },
  ];
}

export { join };
