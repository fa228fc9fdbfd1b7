/**
 * Loaded into the bench's host with `--import` when BENCH_MEM_DETAIL is set (`host.ts`): the host
 * samples its main thread's memory every 250 ms (`process.memoryUsage()` and V8's heap spaces,
 * no GC forced: what the bench's RSS row reads), and on SIGUSR2 writes the samples and one taken
 * then to `<tmpdir>/acp-mem-probe-<pid>.json`.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getHeapSpaceStatistics } from 'node:v8';

const started = performance.now();
const samples = [];
function sample() {
  const spaces = {};
  for (const s of getHeapSpaceStatistics()) {
    if (s.space_size > 0) spaces[s.space_name.replace(/_space$/, '')] = { size: s.space_size, used: s.space_used_size, physical: s.physical_space_size };
  }
  return { t: Math.round(performance.now() - started), memory: process.memoryUsage(), spaces };
}
setInterval(() => samples.push(sample()), 250).unref();

process.on('SIGUSR2', () => {
  const file = join(tmpdir(), `acp-mem-probe-${process.pid}.json`);
  writeFileSync(`${file}.tmp`, JSON.stringify({ now: sample(), samples: samples.splice(0) }));
  renameSync(`${file}.tmp`, file);
});
