import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../core/appCore';
import { createCore } from '../core/createCore';
import { startBrowserHost, type BrowserHost } from './browserHost';
import { StaticAssets } from './staticAssets';

let host: BrowserHost;
let core: AppCore;
const script = `export function render() { return ${JSON.stringify('a transcript row '.repeat(400))}; }\n`;
const page = `<!doctype html><title>ACP</title><script type="module" src="/assets/index-AbCd1234.js"></script>${'<!-- padding -->'.repeat(100)}`;

beforeAll(async () => {
  const renderer = mkdtempSync(join(tmpdir(), 'acp-renderer-'));
  mkdirSync(join(renderer, 'assets'));
  writeFileSync(join(renderer, 'index.html'), page);
  writeFileSync(join(renderer, 'assets', 'index-AbCd1234.js'), script);
  writeFileSync(join(renderer, 'assets', 'icon.png'), Buffer.alloc(4000, 7));
  core = createCore({ dataDir: mkdtempSync(join(tmpdir(), 'acp-host-')), host: 'browser' });
  host = await startBrowserHost({ core, rendererDir: renderer, port: 0 });
});

afterAll(async () => {
  await host.close();
  await core.dispose();
});

/** A raw GET (fetch would decode the body and hide the encoding). */
function get(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: host.port, path, headers: { cookie: `acp_token=${host.token}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('browser host static assets', () => {
  it('sends brotli or gzip as the browser accepts, the same bytes once decoded', async () => {
    const br = await get('/assets/index-AbCd1234.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(script);
    expect(br.body.length).toBeLessThan(script.length / 5);
    expect(br.headers.vary).toBe('accept-encoding');

    const gz = await get('/assets/index-AbCd1234.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(script);

    const plain = await get('/assets/index-AbCd1234.js', { 'accept-encoding': 'br;q=0, identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);

    // Already compressed formats go as they are.
    const png = await get('/assets/icon.png', { 'accept-encoding': 'br' });
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.body.length).toBe(4000);
  });

  it('content-hashed assets are cached for a year; index.html is revalidated (304 when unchanged)', async () => {
    const asset = await get('/assets/index-AbCd1234.js', { 'accept-encoding': 'br' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const first = await get('/', { 'accept-encoding': 'gzip' });
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(gunzipSync(first.body).toString()).toBe(page);
    const again = await get('/', { 'accept-encoding': 'gzip', 'if-none-match': String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it("serves the build's brotli copy when it is as new as its file, and compresses a file whose copy is stale (cold start: nothing compressed at start)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acp-prebuilt-'));
    const fresh = join(dir, 'fresh.js');
    const stale = join(dir, 'stale.js');
    writeFileSync(fresh, script);
    writeFileSync(stale, script);
    // What the build wrote: recognisable bytes, so serving them is told apart from compressing anew.
    const built = brotliCompressSync(Buffer.from('written by the build'));
    writeFileSync(`${fresh}.br`, built);
    writeFileSync(`${stale}.br`, built);
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(`${stale}.br`, hourAgo, hourAgo);

    const assets = new StaticAssets();
    expect((await assets.body(fresh, 'br')).body.equals(built)).toBe(true);
    expect(brotliDecompressSync((await assets.body(stale, 'br')).body).toString()).toBe(script);
  });
});
