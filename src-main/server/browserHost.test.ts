import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { MAX_REQUEST_BYTES } from '../../src-shared/ipc/contract';
import type { AppCore } from '../core/appCore';
import { createCore } from '../core/createCore';
import { startBrowserHost, type BrowserHost } from './browserHost';

let host: BrowserHost;
let core: AppCore;

beforeAll(async () => {
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
});

const base = () => `http://127.0.0.1:${host.port}`;

function connect(query = `?token=${host.token}`, headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws${query}`, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

function call(ws: WebSocket, message: unknown): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const onMessage = (data: Buffer) => {
      const parsed = JSON.parse(data.toString());
      if (parsed.t === 'res') {
        ws.off('message', onMessage);
        resolve(parsed);
      }
    };
    ws.on('message', onMessage);
    ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  });
}

describe('browser host', () => {
  it('binds loopback and prints a URL with the token', () => {
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/?token=${host.token}`);
    expect(host.token.length).toBeGreaterThanOrEqual(32);
  });

  it('refuses HTTP requests without the token with 401', async () => {
    expect((await fetch(`${base()}/`)).status).toBe(401);
    expect((await fetch(`${base()}/?token=wrong`)).status).toBe(401);
  });

  it('serves the app with the token and its assets with the cookie it set', async () => {
    const page = await fetch(`${base()}/?token=${host.token}`);
    expect(page.status).toBe(200);
    const cookie = page.headers.get('set-cookie')!.split(';')[0];
    expect((await fetch(`${base()}/assets/app.js`, { headers: { cookie } })).status).toBe(200);
    expect((await fetch(`${base()}/../../etc/passwd`, { headers: { cookie } })).status).toBe(404);
  });

  it('refuses WebSocket upgrades without the token (401) and from another origin (403)', async () => {
    await expect(connect('')).rejects.toThrow('HTTP 401');
    await expect(connect(`?token=${host.token}`, { origin: 'http://evil.example' })).rejects.toThrow('HTTP 403');
  });

  it('answers bad input with clear errors and keeps serving', async () => {
    const ws = await connect(`?token=${host.token}`, { origin: base() });
    expect(await call(ws, 'not json')).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(await call(ws, { t: 'req', id: 1, name: 'no.such', input: {} })).toMatchObject({ id: 1, ok: false, error: { code: 'unknown_request' } });
    expect(await call(ws, { t: 'req', id: 2, name: 'session.new', input: { agentId: [], cwd: 1 } })).toMatchObject({
      id: 2,
      ok: false,
      error: { code: 'bad_request' },
    });
    const huge = JSON.stringify({ t: 'req', id: 3, name: 'settings.write', input: { text: 'x'.repeat(MAX_REQUEST_BYTES + 10) } });
    expect(await call(ws, huge)).toMatchObject({ id: 3, ok: false, error: { code: 'too_large' } });
    const state = await call(ws, { t: 'req', id: 4, name: 'app.state', input: {} });
    expect(state).toMatchObject({ id: 4, ok: true });
    expect((state.result as { host: string }).host).toBe('browser');
    ws.close();
  });
});
