/**
 * Where the host's memory goes with three 50,000-entry sessions open (issue 23): a core in a
 * data folder opens three long sessions (a first core, in a child process, opened them once: the
 * snapshots and the search index are saved, as when a person comes back), then the page's opening
 * requests (the window and the Review list) are made; `process.memoryUsage()` after a GC is
 * printed at each step, and the bytes of those answers.
 *
 *   node --expose-gc --import tsx bench/hostMemory.ts [entries] [--snapshot file.heapsnapshot]
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import { writeLongLog } from '../src-main/testing/longLog';

const args = process.argv.slice(2);
const ENTRIES = Number(args.find((a) => /^\d+$/.test(a)) ?? 50_000);
const snapshotAt = args.indexOf('--snapshot');
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const mb = (n: number) => (n / 1048576).toFixed(1);
function report(step: string) {
  gc!();
  gc!();
  const m = process.memoryUsage();
  console.log(
    `${step.padEnd(44)} rss ${mb(m.rss).padStart(6)}  heap ${mb(m.heapUsed).padStart(6)} / ${mb(m.heapTotal).padStart(6)}  external ${mb(m.external).padStart(6)}  arrayBuffers ${mb(m.arrayBuffers).padStart(6)}  ` +
      // Where the committed heap is: the young generation (new) stays as large as the busiest moment made it.
      getHeapSpaceStatistics()
        .filter((space) => space.space_size > 1048576)
        .map((space) => `${space.space_name.replace(/_space$/, '')} ${mb(space.space_used_size)}/${mb(space.space_size)}`)
        .join(' '),
  );
}

// Imported by a computed name: the tools' typecheck (DOM lib) does not compile all of src-main through it.
const CORE_MODULE = '../src-main/core/createCore';
const { createCore } = (await import(CORE_MODULE)) as {
  createCore(options: { dataDir: string; host: 'browser'; defaultCwd: string }): {
    handlers: unknown;
    history?: { search?: SearchWithMemory };
    dispose(): Promise<void>;
  };
};
/** The search worker's own heap (round 4 on: `SearchProxy.memory`); older builds do not have it. */
interface SearchWithMemory {
  start?(): Promise<void>;
  idle?(): Promise<void>;
  indexedDocuments?: number;
  load?(): Promise<void>;
  memory?(): Promise<Record<string, number>>;
}
const ids = ['s_a', 's_b', 's_c'];
const warmDir = args[args.indexOf('--warm') + 1];
if (args.includes('--warm')) {
  // The first opening (child process): folds each log, saves its snapshot and the search index.
  const core = createCore({ dataDir: warmDir!, host: 'browser', defaultCwd: warmDir! });
  for (const id of ids) await (core.handlers as unknown as Record<string, (input: unknown) => Promise<unknown>>)['session.open']!({ sessionId: id });
  // The search worker starts on first use (round 5 on): started here, so the index is built and saved as after a person's first search.
  await core.history?.search?.start?.();
  await core.history?.search?.idle?.();
  await core.dispose();
  process.exit(0);
}
const dataDir = mkdtempSync(join(tmpdir(), 'acp-mem-'));
mkdirSync(join(dataDir, 'sessions'), { recursive: true });
writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ agents: [], checkpoints: { enabled: false } }));
for (const id of ids) writeLongLog(join(dataDir, 'sessions', `${id}.jsonl`), ENTRIES, id, ` ${id}`);
execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', import.meta.filename, '--warm', dataDir], { stdio: 'inherit' });
console.log(
  `${ENTRIES} entries a session; load average ${(await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
report('before the core');
const core = createCore({ dataDir, host: 'browser', defaultCwd: dataDir });
const handlers = core.handlers as unknown as Record<string, (input: unknown) => Promise<unknown>>;
report('core created');
for (const id of ids) await handlers['session.open']!({ sessionId: id });
report('3 sessions open (main only)');
let bytes = 0;
for (const id of ids) {
  bytes += JSON.stringify(await handlers['session.window']!({ sessionId: id })).length;
  report(`${id}: window answered`);
  // The Review panel: computed in main where the build has it (session.review); an older build answered every tool call with a diff (session.pick 'changes').
  if (handlers['session.review']) {
    const review = (await handlers['session.review']({ sessionId: id })) as { files: { path: string }[] };
    bytes += JSON.stringify(review).length;
    bytes += JSON.stringify(await handlers['session.reviewFile']!({ sessionId: id, path: review.files[0]!.path })).length;
    report(`${id}: session.review + reviewFile answered`);
  } else {
    bytes += JSON.stringify(await handlers['session.pick']!({ sessionId: id, pick: 'changes' })).length;
    report(`${id}: session.pick answered`);
  }
}
// What the host loads meanwhile in the background (the search index, in slices).
await new Promise((resolve) => setTimeout(resolve, Number(process.env.SETTLE_MS ?? 10_000)));
report('10 s later');
const search = core.history?.search;
if (search?.memory) {
  await search.load?.();
  report('search index loaded');
  const w = await search.memory();
  await search.idle?.();
  console.log(`documents indexed at this start: ${search.indexedDocuments ?? '?'} (0: the saved index was loaded)`);
  console.log(
    `search worker (after a GC)                   heap ${mb(w.heapUsed).padStart(6)} / ${mb(w.heapTotal).padStart(6)}  external ${mb(w.external).padStart(6)}  ` +
      `documents ${w.documents}  postings ${w.postings} (${mb(w.postingBytes)} MB compact, ${w.mapPostings} in Maps), texts ${mb(w.textBytes ?? 0)} MB compressed`,
  );
}
console.log(`bytes of the answers the page got to open the three sessions: ${(bytes / 1024).toFixed(0)} KB`);
if (snapshotAt >= 0) console.log('heap snapshot:', writeHeapSnapshot(args[snapshotAt + 1]));
await core.dispose();
process.exit(0);
