/**
 * How long a 50,000-entry session takes to open, and what it costs in memory; then the same in
 * the browser: scrolling it and switching tabs between two such sessions (browseSessions.ts).
 *
 *   npm run build && npm run bench [-- entries=50000 runs=5] [--node-only]
 *
 * Writes a session log with the app's own EventLog (50,000 transcript entries: prompts,
 * streamed replies, tool calls with diffs, stop reasons), then opens it the way the app does
 * (readEventLog streaming + the shared reducer) and, as a baseline in the same run, by reading
 * the whole file and JSON.parse-ing it at once. Also times what the app does around it:
 * collecting the events for the window (`session.events`), indexing the session for search,
 * and a search. A benchmark, not a test: it prints numbers and never fails on them.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { SessionEvent, SessionEventBody } from '../src-shared/session/events';
import { reduceSession } from '../src-shared/session/reducer';
import type { SessionState } from '../src-shared/session/state';
import { SearchIndex } from '../src-main/history/searchIndex';
import { EventLog, readEventLog } from '../src-main/store/eventLog';
import { browseSessions } from './browseSessions';
import { decodeV1Update } from '../src-shared/acp/v1Update';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const ENTRIES = Number(positional[0] ?? 50_000);
const RUNS = Number(positional[1] ?? 5);
const NODE_ONLY = process.argv.includes('--node-only');
const SESSION = 's_bench';

const words = 'the parser reads each line and folds the event into state while the stream is still arriving so nothing waits'.split(' ');
function sentence(seed: number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += words[(seed * 7 + i * 13) % words.length] + ' ';
  return out;
}

/** One turn = 4 transcript entries: the prompt, the streamed reply, a tool call with a diff, the stop. */
function writeLog(file: string, entries: number, sessionId = SESSION, label = ''): number {
  const log = new EventLog(file);
  let seq = 0;
  const ts = Date.UTC(2026, 0, 1);
  const batch: SessionEvent[] = [];
  const add = (body: SessionEventBody) => batch.push({ ...body, sessionId, seq: ++seq, ts: ts + seq } as SessionEvent);
  add({ kind: 'session.created', agentId: 'bench', agentName: 'Bench Agent', cwd: '/work/bench' });
  add({ kind: 'session.connected', acpSessionId: 'acp_bench', how: 'new' });
  for (let turn = 0; turn * 4 < entries; turn++) {
    add({ kind: 'turn.started', turnId: `t${turn}`, prompt: [{ type: 'text', text: `Question ${turn}${label}: ${sentence(turn, 16)}` }] });
    for (let c = 0; c < 6; c++) add(decodeV1Update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: sentence(turn + c, 12) } }));
    const path = `/work/bench/src/file${turn % 50}.ts`;
    add(
      decodeV1Update({
        sessionUpdate: 'tool_call',
        toolCallId: `c${turn}`,
        title: `Edit file${turn % 50}.ts`,
        kind: 'edit',
        status: 'in_progress',
        locations: [{ path }],
      }),
    );
    add(
      decodeV1Update({
        sessionUpdate: 'tool_call_update',
        toolCallId: `c${turn}`,
        status: 'completed',
        content: [{ type: 'diff', path, oldText: `const a = ${turn};\n${sentence(turn, 10)}\n`, newText: `const a = ${turn + 1};\n${sentence(turn, 10)}\n` }],
      }),
    );
    add({ kind: 'turn.ended', turnId: `t${turn}`, stopReason: 'end_turn' });
    if (batch.length > 5000) log.append(batch.splice(0));
  }
  log.append(batch.splice(0));
  log.close();
  return seq;
}

interface Measure {
  ms: number;
  /** heapUsed after, minus before (what the opened session keeps), MB. */
  heapKeptMB: number;
  /** Highest heapUsed seen during the open, minus before, MB (probed at each batch / at the end of sync work, and sampled). */
  heapPeakMB: number;
  rssDeltaMB: number;
}

const MB = 1024 * 1024;

type Work = (probe: () => void) => Promise<unknown> | unknown;

async function measure(work: Work): Promise<Measure> {
  gc();
  gc();
  const before = process.memoryUsage();
  let peak = before.heapUsed;
  const probe = () => (peak = Math.max(peak, process.memoryUsage().heapUsed));
  const sampler = setInterval(probe, 2);
  const start = performance.now();
  const kept = await work(probe);
  const ms = performance.now() - start;
  clearInterval(sampler);
  const atEnd = process.memoryUsage();
  peak = Math.max(peak, atEnd.heapUsed);
  gc();
  gc();
  const after = process.memoryUsage();
  void kept;
  return { ms, heapKeptMB: (after.heapUsed - before.heapUsed) / MB, heapPeakMB: (peak - before.heapUsed) / MB, rssDeltaMB: (atEnd.rss - before.rss) / MB };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'acp-bench-'));
  const file = join(dir, 'sessions', `${SESSION}.jsonl`);
  const writeStart = performance.now();
  const events = writeLog(file, ENTRIES);
  const writeMs = performance.now() - writeStart;
  const size = statSync(file).size;

  const methods: Record<string, Work> = {
    // What the app does to open a session (SessionManager.restore, history reconcile).
    'stream + fold (app)': async (probe) => {
      let state: SessionState | undefined;
      await readEventLog(file, (batch) => {
        state = reduceSession(state, batch);
        probe();
      });
      return state;
    },
    // Baseline: the whole file in memory as one string, parsed at once, then folded.
    'whole file + JSON.parse (baseline)': (probe) => {
      const text = readFileSync(file, 'utf8');
      const all = JSON.parse(`[${text.trimEnd().split('\n').join(',')}]`) as SessionEvent[];
      const state = reduceSession(undefined, all);
      probe(); // text, parsed events and state are all alive here: the approach's peak
      return state;
    },
    // What `session.events` does for the window (all events collected, no fold).
    'stream, collect events (session.events)': async (probe) => {
      const { events } = await readEventLog(file);
      probe();
      return events;
    },
  };

  const results: Record<string, Measure[]> = {};
  let state: SessionState | undefined;
  for (let run = 0; run < RUNS; run++) {
    // Alternate the order so neither approach always runs on a warmer heap.
    const names = run % 2 === 0 ? Object.keys(methods) : Object.keys(methods).reverse();
    for (const name of names) (results[name] ??= []).push(await measure(methods[name]));
  }
  await readEventLog(file, (batch) => {
    state = reduceSession(state, batch);
  });

  const index = new SearchIndex(dir, 60_000);
  const indexMeasure = await measure(() => {
    index.indexState(state!, size, true);
    void index.documentCount; // changes are queued: reading applies them, inside the measure
    return index;
  });
  const searchStart = performance.now();
  const hits = index.search('parser stream', 50);
  const searchMs = performance.now() - searchStart;

  const summary = Object.entries(results).map(([name, runs]) => ({
    name,
    ms: median(runs.map((r) => r.ms)),
    heapKeptMB: median(runs.map((r) => r.heapKeptMB)),
    heapPeakMB: median(runs.map((r) => r.heapPeakMB)),
    rssDeltaMB: median(runs.map((r) => r.rssDeltaMB)),
  }));
  const app = summary[0];
  const base = summary[1];
  const fmt = (n: number, d = 1) => n.toFixed(d).padStart(8);

  console.log(`Node ${process.version}, ${process.platform}/${process.arch}; ${RUNS} runs, medians`);
  console.log(`log: ${state!.entries.length} transcript entries, ${events} events, ${(size / MB).toFixed(1)} MB (written in ${writeMs.toFixed(0)} ms)`);
  console.log('');
  console.log(`${'approach'.padEnd(42)}${'ms'.padStart(8)}${'peak heap MB'.padStart(14)}${'kept heap MB'.padStart(14)}${'rss Δ MB'.padStart(10)}`);
  for (const row of summary)
    console.log(
      `${row.name.padEnd(42)}${fmt(row.ms, 0)}${fmt(row.heapPeakMB).padStart(14)}${fmt(row.heapKeptMB).padStart(14)}${fmt(row.rssDeltaMB).padStart(10)}`,
    );
  console.log('');
  console.log(
    `ratio app / baseline: time ${(app.ms / base.ms).toFixed(2)}×, peak heap ${(app.heapPeakMB / base.heapPeakMB).toFixed(2)}×, kept heap ${(app.heapKeptMB / base.heapKeptMB).toFixed(2)}×`,
  );
  console.log(
    `search index for this session: built in ${indexMeasure.ms.toFixed(0)} ms (${index.documentCount} documents, +${indexMeasure.heapKeptMB.toFixed(1)} MB heap); query "parser stream": ${hits.length} hits in ${searchMs.toFixed(1)} ms`,
  );
  if (!NODE_ONLY) {
    const dataDir = join(dir, 'browser');
    const seeded = (['a', 'b'] as const).map((name) => {
      const sessionId = `s_bench_${name}`;
      const label = ` [${name}]`;
      writeLog(join(dataDir, 'sessions', `${sessionId}.jsonl`), ENTRIES, sessionId, label);
      return { sessionId, newest: `Question ${Math.ceil(ENTRIES / 4) - 1}${label}` };
    });
    await browseSessions(dataDir, [seeded[0], seeded[1]]);
  }
  if (process.env.BENCH_KEEP) console.log(`kept ${file}`);
  else rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

void main();
