import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';

/** What every bench script reads from its command line, prints, and registers. */

const ROOT = resolve(import.meta.dirname, '..');

/** The script's own arguments. */
export const args = process.argv.slice(2);

/** The value after `name` (`--rounds 3`), or `fallback`. */
export function arg(name: string, fallback: string): string {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
}

/** The load average, as the benches print it beside their figures. */
export function load(): string {
  return loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
}

/** The scripted agent the long-session benches register (it is never started: sessions come from logs). */
export const BENCH_AGENT = { id: 'bench', name: 'Bench Agent', command: process.execPath, args: [join(ROOT, 'e2e/fixtures/flood-agent.mjs')] };
