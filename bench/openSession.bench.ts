/**
 * Long sessions (issue 23): what it costs to come back to a session of 1,000, 10,000 and 50,000
 * transcript entries, each figure of the goal next to its floor and the ratio, measured in the
 * same run (interleaved rounds, medians), in the style of `npm run bench:stream`.
 *
 *   npm run build && npm run bench [-- --sizes 1000,10000,50000] [--runs 3] [--node-only | --browser-only] [--content prose|mixed]
 *
 * For each size, three session logs are written with the app's own EventLog (4 entries a turn:
 * a prompt, a streamed reply, a tool call with a diff, the stop). Node (in this process): opening
 * a log in main with and without its snapshot against reading the whole file at once; a search
 * query over the three sessions (p95 of 10 queries a round) against MiniSearch's own search()
 * over the same indexes; what a restart re-indexes. Browser (`out/`, Chromium): cold start, open,
 * a second session, tab switches, wheel scrolling, host RSS and page heap, against a trivial
 * server and page (longBrowser.ts). Then the start bundle, raw and as served. A benchmark, not
 * a test: it prints numbers and never fails on them.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { launchBenchBrowser } from './browser';
import { writeLongLog } from '../src-main/testing/longLog';
import { browserFigures, startBundle, type Seeded } from './longBrowser';
import { nodeFigures, type Row } from './longNode';
import { arg, args } from './cliArgs';

const ROOT = resolve(import.meta.dirname, '..');
const SIZES = arg('--sizes', process.env.BENCH_SIZES ?? '1000,10000,50000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const RUNS = Number(arg('--runs', process.env.BENCH_RUNS ?? '3'));
const NODE_ONLY = args.includes('--node-only') || !existsSync(join(ROOT, 'out/main/cli.js'));
// `--browser-only`: the page's figures alone (open, second session, tab switches...), e.g. to compare two builds with BENCH_OUT.
const BROWSER_ONLY = args.includes('--browser-only');
/** `mixed`: replies with code blocks, and terminals with coloured output in every other turn (`longLog.ts`). */
const CONTENT = arg('--content', 'prose') === 'mixed' ? 'mixed' : 'prose';

const fmt = (n: number, width = 9, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '-').padStart(width);

function verdict(row: Row): string {
  const ratio = row.app / row.floor;
  const parts: string[] = [];
  if (row.goal.ratio !== undefined) parts.push(`≤ ${row.goal.ratio}× ${Number.isFinite(ratio) && ratio <= row.goal.ratio ? 'met' : 'NOT met'}`);
  if (row.goal.max !== undefined) parts.push(`≤ ${row.goal.max} ${row.goal.max >= row.app ? 'met' : 'NOT met'}`);
  return parts.join(', ');
}

function print(size: number, rows: Row[]): void {
  console.log('');
  console.log(`${size.toLocaleString('en')} entries`);
  console.log(`${'figure'.padEnd(58)}${'app'.padStart(9)}${'floor'.padStart(9)}${'ratio'.padStart(8)}  goal`);
  for (const row of rows) {
    const ratio = row.app / row.floor;
    console.log(
      `${row.figure.padEnd(58)}${fmt(row.app, 9, row.unit === 'MB' || row.app < 10 ? 1 : 0)}${fmt(row.floor, 9, row.floor < 10 ? 1 : 0)}${fmt(ratio, 8, 2)}  ${verdict(row)}`,
    );
  }
}

async function main(): Promise<void> {
  console.log(
    `Node ${process.version}; ${RUNS} rounds, interleaved; medians. Load average at start: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const bundle = existsSync(join(process.env.BENCH_OUT ?? join(ROOT, 'out'), 'renderer/index.html')) ? startBundle(process.env.BENCH_OUT) : null;
  if (bundle)
    console.log(
      `start bundle (index.html + the JS and CSS it loads): ${(bundle.raw / 1024).toFixed(0)} KB raw, ${(bundle.served / 1024).toFixed(0)} KB as served (brotli)`,
    );
  const browser = NODE_ONLY ? null : await launchBenchBrowser();
  try {
    for (const size of SIZES) {
      const dataDir = mkdtempSync(join(tmpdir(), 'acp-bench-long-'));
      const sessions: Seeded[] = ['a', 'b', 'c'].map((name) => {
        const sessionId = `s_bench_${name}`;
        const label = ` [${name}]`;
        writeLongLog(join(dataDir, 'sessions', `${sessionId}.jsonl`), size, sessionId, label, CONTENT);
        return { sessionId, newest: `Question ${Math.ceil(size / 4) - 1}${label}` };
      });
      const logs = sessions.map((s) => join(dataDir, 'sessions', `${s.sessionId}.jsonl`));
      console.log(`\n(${size} entries: three logs of ${(statSync(logs[0]).size / 1024 / 1024).toFixed(1)} MB; load ${loadavg()[0].toFixed(1)})`);
      const rows = BROWSER_ONLY ? [] : await nodeFigures(join(dataDir, 'node'), logs, RUNS);
      if (browser) {
        const { writeFileSync } = await import('node:fs');
        writeFileSync(join(dataDir, 'sessions', 'tabs.json'), JSON.stringify({ open: sessions.map((s) => s.sessionId), active: sessions[0].sessionId }));
        rows.push(...(await browserFigures(browser, dataDir, sessions, RUNS, size)));
      }
      print(size, rows);
      if (!process.env.BENCH_KEEP) rmSync(dataDir, { recursive: true, force: true });
    }
  } finally {
    await browser?.close();
  }
  console.log(
    `\nLoad average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  process.exit(0);
}

void main();
