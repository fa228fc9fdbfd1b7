/**
 * The browser host (`out/main/cli.js serve`) for the benchmarks: started on a free port, stopped
 * and cleaned up. `BENCH_OUT` points at another build's `out` folder (to compare two builds).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Page } from 'playwright-core';
import { join, resolve } from 'node:path';

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
  const workspace = mkdtempSync(join(tmpdir(), 'acp-bench-ws-'));
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify(settings));
  const nodeArgs = options.profileDir ? ['--cpu-prof', '--cpu-prof-dir', options.profileDir] : [];
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
          rmSync(workspace, { recursive: true, force: true });
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
