import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../core/appCore';
import { createCore } from '../core/createCore';
import { startBrowserHost, type BrowserHost } from './browserHost';

let host: BrowserHost;
let core: AppCore;
const crashes: unknown[] = [];
const onCrash = (error: unknown) => crashes.push(error);

beforeAll(async () => {
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  const renderer = mkdtempSync(join(tmpdir(), 'acp-renderer-'));
  mkdirSync(join(renderer, 'assets'));
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>ACP</title>');
  writeFileSync(join(renderer, 'assets', 'app.js'), 'console.log(1)');
  core = createCore({ dataDir: mkdtempSync(join(tmpdir(), 'acp-host-')), host: 'browser' });
  host = await startBrowserHost({ core, rendererDir: renderer, port: 0 });
});

afterAll(async () => {
  await host.close();
  await core.dispose();
  process.off('uncaughtException', onCrash);
  process.off('unhandledRejection', onCrash);
});

/** Sends raw bytes and returns the status code of the answer (0: the connection closed without one). */
function raw(request: string | Buffer): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect(host.port, '127.0.0.1');
    let text = '';
    const done = () => {
      socket.destroy();
      resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0));
    };
    socket.setTimeout(2000, done);
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (/\r\n\r\n/.test(text)) done();
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.write(request);
  });
}

const get = (path: string, headers: Record<string, string> = {}) =>
  raw(
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}Connection: close\r\n\r\n`,
  );

const upgrade = (path: string, headers: Record<string, string> = {}) =>
  get(path, { Upgrade: 'websocket', Connection: 'Upgrade', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version': '13', ...headers });

async function stillServing(): Promise<void> {
  expect(await get(`/?token=${host.token}`)).toBe(200);
  expect(crashes).toEqual([]);
}

describe('browser host against hostile requests', () => {
  it('a malformed token cookie is 401, not a crash (any local page can plant one)', async () => {
    expect(await get('/', { Cookie: 'acp_token=%E0%A4%A' })).toBe(401);
    expect(await get('/assets/app.js', { Cookie: 'x=1; acp_token=%' })).toBe(401);
    await stillServing();
  });

  it('a path with a stray % is 400 even with the token', async () => {
    expect(await get(`/%E0%A4%A?token=${host.token}`)).toBe(400);
    expect(await get(`/assets/%?token=${host.token}`)).toBe(400);
    expect(await get(`/assets%2F..%2F..%2Fetc%2Fpasswd?token=${host.token}`)).toBe(404);
    await stillServing();
  });

  it('a WebSocket upgrade with Origin: null or a garbage origin is 403', async () => {
    expect(await upgrade(`/ws?token=${host.token}`, { Origin: 'null' })).toBe(403);
    expect(await upgrade(`/ws?token=${host.token}`, { Origin: '%%%' })).toBe(403);
    expect(await upgrade(`/ws?token=${host.token}`, { Origin: 'http://evil.example' })).toBe(403);
    expect(await upgrade(`/ws?token=${host.token}`, { Origin: `http://127.0.0.1:${host.port}` })).toBe(101);
    await stillServing();
  });

  it('survives a fuzz pass of random and boundary requests and upgrades', async () => {
    let seed = 12;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    const pieces = [
      '%',
      '%E0%A4%A',
      '%00',
      '%2e%2e',
      '..',
      '/',
      '\\',
      '?',
      '#',
      '&token=',
      'token=',
      host.token,
      'ws',
      'index.html',
      'é',
      '%ZZ',
      '%C0%AF',
      ';',
      '=',
      ' ',
      '\t',
      'a'.repeat(50),
    ];
    const junk = (n: number) => Array.from({ length: n }, () => pick(pieces)).join('');
    const statuses = new Map<number, number>();
    for (let i = 0; i < 300; i++) {
      const path = `/${junk(Math.floor(random() * 8))}`;
      const headers: Record<string, string> = {};
      if (random() < 0.5) headers.Cookie = `${junk(2)}acp_token=${junk(3)}`;
      if (random() < 0.5) headers.Origin = pick(['null', '', 'http://', '%E0%A4%A', `http://127.0.0.1:${host.port}`, 'file://', junk(2)]);
      let status: number;
      if (i % 3 === 0) status = await upgrade(path, headers);
      else if (i % 11 === 0) status = await raw(Buffer.from(`${junk(3)} ${path} HTTP/1.1\r\n${junk(2)}\r\n\r\n`, 'latin1'));
      else status = await get(path, headers);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      expect(status === 0 || status === 101 || (status >= 200 && status < 500), `request ${i} → ${status}`).toBe(true);
    }
    // Most requests are refused with a status; none took the host down.
    expect((statuses.get(401) ?? 0) + (statuses.get(400) ?? 0) + (statuses.get(403) ?? 0)).toBeGreaterThan(100);
    await stillServing();
  }, 60_000);
});
