import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageStart } from '../store/pageStart';
import { startBrowserHost, type BrowserHost } from './browserHost';

const BUILT = [
  '<!doctype html>',
  '<html lang="en">',
  '<head><script type="module" async crossorigin src="./assets/early-a1b2c3d4.js"></script>',
  '<script type="module" crossorigin src="./assets/index-a1b2c3d4.js"></script>',
  '<link rel="modulepreload" crossorigin href="./assets/chunk-a1b2c3d4.js">',
  '<link rel="stylesheet" crossorigin href="./assets/index-a1b2c3d4.css"></head>',
  '<body><div id="root"></div></body></html>',
].join('\n');

let host: BrowserHost;
let paint: () => Promise<PageStart | null>;

beforeAll(async () => {
  const renderer = mkdtempSync(join(tmpdir(), 'acp-renderer-'));
  mkdirSync(join(renderer, 'assets'));
  writeFileSync(join(renderer, 'index.html'), BUILT);
  writeFileSync(join(renderer, 'assets', 'index-a1b2c3d4.css'), '.row{color:red}');
  // The core is never asked for here: only index.html is served.
  host = await startBrowserHost({
    core: () => new Promise(() => {}),
    loadCoreWithinMs: 60_000,
    rendererDir: renderer,
    port: 0,
    pageStart: () => paint(),
  });
});
afterAll(() => host.close());

function get(headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`http://127.0.0.1:${host.port}/?token=${host.token}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('index.html with a first paint', () => {
  it('carries the rows before the root, in their palette, and runs the entry after the first frame', async () => {
    const markup = '<div id="first-paint" aria-hidden="true" inert><p>Costs $5 &amp; the $&amp; sign: $& $1 $`</p></div>';
    paint = async () => ({ markup, theme: 'dark', deferEntry: true });
    const page = await get({ 'accept-encoding': 'br' });
    expect(page.status).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    const html = brotliDecompressSync(page.body).toString('utf8');
    // The rows' text as written: `$&` and friends are not replacement patterns.
    expect(html).toContain(`${markup}<div id="root"></div>`);
    expect(html).toContain('<html data-theme="dark" lang="en">');
    expect(html).not.toContain('<script type="module" crossorigin src="./assets/index-a1b2c3d4.js">');
    // The entry and the chunks' preloads are named for after the first frame: nothing compiles while it is drawn.
    expect(html).toContain('<link crossorigin href="./assets/index-a1b2c3d4.js" data-after-first-paint>');
    expect(html).toContain('<link data-preload-after-first-paint="modulepreload" crossorigin href="./assets/chunk-a1b2c3d4.js">');
    expect(html).not.toContain('rel="modulepreload"');
    expect(html).toContain('<script type="module" async crossorigin src="./assets/early-a1b2c3d4.js"></script>');
    // The start stylesheet inline: the first frame does not wait for a request the host may answer late.
    expect(html).toContain('<style>.row{color:red}</style>');
    expect(html).not.toContain('index-a1b2c3d4.css');
    // The same page again is a 304; another page is not.
    expect((await get({ 'accept-encoding': 'br', 'if-none-match': String(page.headers.etag) })).status).toBe(304);
    paint = async () => ({ markup: '<div id="first-paint" aria-hidden="true" inert><p>Another</p></div>', theme: 'dark', deferEntry: true });
    expect((await get({ 'accept-encoding': 'br', 'if-none-match': String(page.headers.etag) })).status).toBe(200);
  });

  it('is index.html as built when there is no first paint, or reading it fails', async () => {
    paint = async () => null;
    expect((await get()).body.toString('utf8')).toBe(BUILT);
    paint = async () => {
      throw new Error('disk gone');
    };
    expect((await get()).body.toString('utf8')).toBe(BUILT);
  });
});
