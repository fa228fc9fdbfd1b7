import { existsSync, mkdtempSync, readdirSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { wordSession } from '../testing/wordSessions';
import { SearchIndex } from './searchIndex';
import { SearchProxy } from './searchProxy';

const proxies: SearchProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((proxy) => proxy.dispose()));
});

/** Files the in-process index that wrote a saved index keeps open (not the worker's). */
const builders = new Set<string>();

/** The scratch postings files the search workers hold open under `dir` (unlinked: only a descriptor keeps them). */
function openScratchFiles(dir: string): string[] {
  const files: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    let target = '';
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue; // closed since the listing (readdir's own descriptor)
    }
    if (target.startsWith(dir) && target.includes('.postings-') && !builders.has(target)) files.push(target);
  }
  return files;
}

/** A data folder with a saved index of two sessions (the worker loads each into a scratch file). */
function savedIndex(): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'acp-search-crash-'));
  const index = new SearchIndex(dataDir, 60_000);
  index.indexState(wordSession('s1', 300), 100, true);
  index.indexState(wordSession('s2', 300, { stride: 5 }), 100, true);
  index.flush();
  for (const file of openScratchFiles(dataDir)) builders.add(file);
  return dataDir;
}

async function loadedProxy(dataDir: string): Promise<SearchProxy> {
  const proxy = new SearchProxy(dataDir);
  proxies.push(proxy);
  await proxy.loadManifest();
  await proxy.load();
  return proxy;
}

const worker = (proxy: SearchProxy) => (proxy as unknown as { worker: Worker }).worker;

/**
 * Issue 23 (round 8): the postings file is unlinked once opened, so its disk space is freed when
 * its descriptor is closed; worker threads share the process's descriptors, and a worker that died
 * left its files open until the host exited (each restart opened new ones).
 */
// /proc/self/fd is how a test sees which files the process holds; the fix itself is not Linux-only.
describe.runIf(existsSync('/proc/self/fd'))('a search worker that dies', () => {
  it('leaves none of its scratch files open, and search answers from the new worker', async () => {
    const dataDir = savedIndex();
    const dir = join(dataDir, 'sessions', 'search');
    const proxy = await loadedProxy(dataDir);
    expect((await proxy.query('okapi')).length).toBeGreaterThan(0);
    const before = openScratchFiles(dir);
    expect(before).toHaveLength(2); // one a loaded session

    // Stopped from outside, then dead of an uncaught error in its own code (a change it cannot read).
    const deaths = [() => void worker(proxy).terminate(), () => worker(proxy).postMessage({ type: 'index', change: null })];
    for (const die of deaths) {
      const dead = worker(proxy);
      const exited = new Promise((resolve) => dead.once('exit', resolve));
      die();
      await exited;
      // The new worker loads the saved index into files of its own; the dead one's are closed.
      expect((await proxy.query('okapi')).length).toBeGreaterThan(0);
      const after = openScratchFiles(dir);
      expect(after).toHaveLength(2);
      for (const file of before) expect(after).not.toContain(file);
      before.splice(0, before.length, ...after);
    }
  });

  it('closes nothing another live worker uses: its files stay open through the crash', async () => {
    const first = await loadedProxy(savedIndex());
    const other = await loadedProxy(savedIndex());
    expect((await other.query('heron')).length).toBeGreaterThan(0);
    await worker(first).terminate();
    expect((await first.query('heron')).length).toBeGreaterThan(0);
    // The other worker's files were not touched: it still reads its postings.
    for (let i = 0; i < 3; i++) expect((await other.query(i % 2 ? 'zebra' : 'parser')).length).toBeGreaterThan(0);
  });

  it('quitting closes the worker\u2019s scratch files', async () => {
    const dataDir = savedIndex();
    const proxy = await loadedProxy(dataDir);
    await proxy.query('okapi');
    expect(openScratchFiles(join(dataDir, 'sessions', 'search'))).toHaveLength(2);
    await proxy.dispose();
    expect(openScratchFiles(join(dataDir, 'sessions', 'search'))).toHaveLength(0);
  });
});
