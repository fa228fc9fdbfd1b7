/**
 * What a checkpoint costs (issue 24): a 10,000-file folder that is also the person's git
 * repository, snapshotted by the app's shadow repository (system git, separate git directory),
 * unchanged and with 10 files changed, against `git status` of the person's repository on the
 * same folder in the same run; and the disk the shadow repository takes.
 *
 *   npm run bench:checkpoint [-- files=10000 runs=7]
 *
 * Prints the wall time (median of `runs`) and the CPU time per run (git processes + this one),
 * each against `git status`. A benchmark, not a test: it never fails on its numbers.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ShadowRepo } from '../src-main/checkpoints/shadowRepo';

const args = Object.fromEntries(process.argv.slice(2).map((arg) => arg.split('=') as [string, string]));
const FILES = Number(args.files ?? 10_000);
const RUNS = Number(args.runs ?? 11);
const LIMIT = 5 * 1024 * 1024;

/**
 * CPU time of this process and of its finished children, in ms: on a shared machine the wall
 * clock moves with everybody's load, the CPU a checkpoint costs much less. Children's times come
 * from /proc/self/stat (cutime + cstime, in clock ticks of 10 ms), so they are summed over runs.
 */
function cpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  const children = (Number(fields[13]) + Number(fields[14])) * 10;
  const own = process.cpuUsage();
  return children + (own.user + own.system) / 1000;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function du(path: string): number {
  let total = 0;
  for (const name of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, name.name);
    total += name.isDirectory() ? du(full) : statSync(full).size;
  }
  return total;
}

const root = mkdtempSync(join(tmpdir(), 'acp-bench-checkpoint-'));
const folder = join(root, 'project');
const data = join(root, 'shadow');
try {
  // A project of FILES small source files in 100 folders, committed in the person's own repository.
  for (let i = 0; i < FILES; i++) {
    const dir = join(folder, `pkg${i % 100}`, `mod${Math.floor(i / 100) % 10}`);
    if (i < 1000) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `file${i}.ts`), `export const value${i} = ${i};\n// ${'x'.repeat(200 + (i % 300))}\n`);
  }
  writeFileSync(join(folder, '.gitignore'), 'node_modules/\n');
  const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' };
  const git = (...argv: string[]) => execFileSync('git', argv, { cwd: folder, env: gitEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'init');

  const repo = new ShadowRepo(folder, data);
  let t = performance.now();
  await repo.snapshot('first', LIMIT);
  const first = performance.now() - t;

  // The floor of any checkpoint engine written in JavaScript (isomorphic-git's statusMatrix, a
  // hand-made walker): list every folder and stat every file, before reading .gitignore or
  // comparing with an index. isomorphic-git is not installed here, so this floor stands in for it.
  const walk = async (dir: string): Promise<number> => {
    let count = 0;
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.name === '.git') continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) count += await walk(full);
      else {
        await lstat(full);
        count++;
      }
    }
    return count;
  };
  const nodeWalk: number[] = [];

  const status: number[] = [];
  const unchanged: number[] = [];
  const changed: number[] = [];
  const cpu = { status: 0, unchanged: 0, changed: 0, walk: 0 };
  let c = 0;
  for (let run = 0; run < RUNS; run++) {
    c = cpuMs();
    t = performance.now();
    git('status', '--porcelain');
    status.push(performance.now() - t);
    cpu.status += cpuMs() - c;

    c = cpuMs();
    t = performance.now();
    const same = await repo.snapshot(`u${run}`, LIMIT);
    unchanged.push(performance.now() - t);
    cpu.unchanged += cpuMs() - c;

    c = cpuMs();
    t = performance.now();
    await walk(folder);
    nodeWalk.push(performance.now() - t);
    cpu.walk += cpuMs() - c;
    if (same.changed) throw new Error('an unchanged folder made a new commit');

    for (let i = 0; i < 10; i++) {
      const n = (run * 10 + i) * 97;
      writeFileSync(join(folder, `pkg${n % 100}`, `mod${Math.floor(n / 100) % 10}`, `file${n % FILES}.ts`), `export const changed = ${run};\n`);
    }
    c = cpuMs();
    t = performance.now();
    const next = await repo.snapshot(`c${run}`, LIMIT);
    changed.push(performance.now() - t);
    cpu.changed += cpuMs() - c;
    if (!next.changed) throw new Error('10 changed files made no commit');
  }
  const gitStatus = median(status);
  const statusCpu = cpu.status / RUNS;
  const row = (name: string, ms: number, cpuTotal: number) =>
    console.log(
      `${name.padEnd(44)} ${ms.toFixed(1).padStart(8)} ms ${(ms / gitStatus).toFixed(2).padStart(6)}×  | cpu ${(cpuTotal / RUNS).toFixed(1).padStart(7)} ms ${(cpuTotal / RUNS / statusCpu).toFixed(2).padStart(6)}×`,
    );
  console.log(`checkpoint bench: ${FILES} files, ${RUNS} runs, ${execFileSync('git', ['--version']).toString().trim()}, load ${loadavg()[0].toFixed(1)}`);
  console.log(`${''.padEnd(44)} ${'wall (median)'.padStart(11)} vs status | cpu per run (git + node) vs status`);
  row('git status (the person’s repository)', gitStatus, cpu.status);
  row('checkpoint, nothing changed', median(unchanged), cpu.unchanged);
  row('checkpoint, 10 files changed', median(changed), cpu.changed);
  row('Node readdir + lstat of every file (JS floor)', median(nodeWalk), cpu.walk);
  console.log(`${'first checkpoint (every file stored)'.padEnd(44)} ${first.toFixed(1).padStart(8)} ms`);
  console.log(`${'project size (files only)'.padEnd(44)} ${(du(folder) / 1024 / 1024 - du(join(folder, '.git')) / 1024 / 1024).toFixed(1).padStart(8)} MB`);
  console.log(`${'person’s .git'.padEnd(44)} ${(du(join(folder, '.git')) / 1024 / 1024).toFixed(1).padStart(8)} MB`);
  console.log(`${`shadow repository after ${1 + RUNS * 2} checkpoints`.padEnd(44)} ${(du(data) / 1024 / 1024).toFixed(1).padStart(8)} MB`);
  await repo.prune([]);
  console.log(`${'shadow repository after git gc'.padEnd(44)} ${(du(data) / 1024 / 1024).toFixed(1).padStart(8)} MB`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
