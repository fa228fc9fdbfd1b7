import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { savePaint } from '../store/firstPaintFile';
import { pageStart } from '../store/pageStart';
import { startBrowserHost, type BrowserHost } from './browserHost';

/*
 * index.html with its first paint is made as the host starts (round 8): made in the request, its
 * reads, page and compression waited for a core on a loaded machine, in front of the page's first
 * bytes. What a person would notice if this went wrong: rows of a session that has moved on since,
 * shown as its newest.
 */

// Over 1 KB, as the built one is (a smaller file is not worth compressing).
const BUILT = `<!doctype html><html lang="en"><head><title>ACP</title><!-- ${'x'.repeat(1200)} --><script type="module" crossorigin src="./assets/index-a1b2c3d4.js"></script></head><body><div id="root"></div></body></html>`;

let dataDir: string;
let log: string;
let host: BrowserHost | null = null;

function line(seq: number): string {
  return `${JSON.stringify({ kind: 'notice', level: 'info', message: `event ${seq}`, sessionId: 's_one', seq, ts: 1000 + seq })}\n`;
}

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'acp-prepared-'));
  mkdirSync(join(dataDir, 'sessions'));
  log = join(dataDir, 'sessions', 's_one.jsonl');
  writeFileSync(log, line(1) + line(2));
  writeFileSync(join(dataDir, 'sessions', 'tabs.json'), JSON.stringify({ open: ['s_one'], active: 's_one' }));
  await savePaint(log, { seq: 2, insets: { left: 0, top: 0, right: 0, bottom: 0 }, theme: 'light', html: '<p>Newest answer</p>' });
});
afterEach(async () => {
  await host?.close();
  host = null;
  rmSync(dataDir, { recursive: true, force: true });
});

/** A host over `dataDir` whose core never loads (only index.html is asked for), counting its page starts. */
async function startHost(): Promise<{ made: () => number }> {
  const renderer = mkdtempSync(join(tmpdir(), 'acp-renderer-'));
  mkdirSync(join(renderer, 'assets'));
  writeFileSync(join(renderer, 'index.html'), BUILT);
  let made = 0;
  host = await startBrowserHost({
    core: () => new Promise(() => {}),
    loadCoreWithinMs: 60_000,
    rendererDir: renderer,
    port: 0,
    pageStart: () => {
      made++;
      return pageStart(dataDir);
    },
  });
  return { made: () => made };
}

function page(): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(`http://127.0.0.1:${host!.port}/?token=${host!.token}`, { headers: { 'accept-encoding': 'br' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve(brotliDecompressSync(Buffer.concat(chunks)).toString('utf8')));
    });
    req.on('error', reject);
    req.end();
  });
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe('index.html made as the host starts', () => {
  it('is what the first load gets, without reading the files again', async () => {
    const { made } = await startHost();
    await until(() => made() > 0);
    expect(made()).toBe(1);
    expect(await page()).toContain('Newest answer');
    expect(made()).toBe(1);
    // Used once: the next load reads the files for itself.
    expect(await page()).toContain('Newest answer');
    expect(made()).toBe(2);
  });

  it('is not served once a file it was made from changed (an event written after the host started)', async () => {
    const { made } = await startHost();
    await until(() => made() > 0);
    appendFileSync(log, line(3));
    const html = await page();
    expect(html).not.toContain('Newest answer');
    expect(html).not.toContain('id="first-paint"');
  });

  it('is not served once the shown tab changed', async () => {
    const other = join(dataDir, 'sessions', 's_two.jsonl');
    writeFileSync(other, line(1));
    const { made } = await startHost();
    await until(() => made() > 0);
    writeFileSync(join(dataDir, 'sessions', 'tabs.json'), JSON.stringify({ open: ['s_one', 's_two'], active: 's_two' }));
    expect(await page()).not.toContain('Newest answer');
  });
});
