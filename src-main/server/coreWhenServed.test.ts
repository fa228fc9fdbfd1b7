import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { get, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { AppCore } from '../core/appCore';
import { createCore } from '../core/createCore';
import { startBrowserHost, type BrowserHost } from './browserHost';

/*
 * `serve` listens before its core is loaded and loads it once the page's first files are sent
 * (issue 23, cold start). What a person would notice if this went wrong: a page that cannot
 * load while the core loads, a request sent early that is never answered, or a host whose core
 * failed to load that answers nothing.
 */

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function renderer(): string {
  const dir = mkdtempSync(join(tmpdir(), 'acp-renderer-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>ACP</title><script type="module" src="/assets/app.js"></script>');
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(dir, 'assets', 'big.js'), 'x'.repeat(8 * 1024 * 1024));
  return dir;
}

/** A host whose core loader is watched: when it was asked for, and what it gave. */
async function deferredHost(load: () => Promise<AppCore>, loadCoreWithinMs = 60_000): Promise<{ host: BrowserHost; asked: () => number }> {
  let asked = 0;
  const host = await startBrowserHost({
    core: () => {
      asked++;
      return load();
    },
    loadCoreWithinMs,
    rendererDir: renderer(),
    port: 0,
  });
  cleanup.push(() => host.close());
  return { host, asked: () => asked };
}

/** A host whose page carries its first frame (rows) and its entry named for after that frame; its core loader counted. */
async function firstFrameHost(loadCoreWithinMs: number): Promise<{ host: BrowserHost; asked: () => number }> {
  const dir = renderer();
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html lang="en"><head><script type="module" crossorigin src="./assets/app.js"></script></head><body><div id="root"></div></body></html>',
  );
  let asked = 0;
  const host = await startBrowserHost({
    core: async () => {
      asked++;
      return newCore();
    },
    loadCoreWithinMs,
    rendererDir: dir,
    port: 0,
    pageStart: async () => ({ markup: '<div id="first-paint"><p>Newest entry</p></div>', theme: null, deferEntry: true }),
  });
  cleanup.push(() => host.close());
  return { host, asked: () => asked };
}

function newCore(): AppCore {
  const core = createCore({ dataDir: mkdtempSync(join(tmpdir(), 'acp-host-')), host: 'browser' });
  cleanup.push(() => core.dispose());
  return core;
}

function connect(host: BrowserHost): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
    cleanup.push(async () => ws.close());
  });
}

function answers(ws: WebSocket, count: number): Promise<Record<string, unknown>[]> {
  const got: Record<string, unknown>[] = [];
  return new Promise((resolve) => {
    ws.on('message', (data: Buffer) => {
      const parsed = JSON.parse(data.toString());
      if (parsed.t !== 'res') return;
      got.push(parsed);
      if (got.length === count) resolve(got);
    });
  });
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe('a browser host that loads its core once the page is served', () => {
  it('serves the page while the core is still loading, and asks for the core only once the page is sent', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { host, asked } = await deferredHost(async () => {
      await gate;
      return newCore();
    });
    const base = `http://127.0.0.1:${host.port}`;
    // Listening does not wait for the core.
    expect(asked()).toBe(0);
    const page = await fetch(`${base}/?token=${host.token}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>ACP</title>');
    await until(() => asked() > 0);
    expect(asked()).toBe(1);
    // The core is loading (its loader has not returned): the page's files are still served.
    const cookie = page.headers.get('set-cookie')!.split(';')[0];
    const script = await fetch(`${base}/assets/app.js`, { headers: { cookie } });
    expect(script.status).toBe(200);
    expect(await script.text()).toBe('console.log(1)');
    release();
  });

  it('answers the requests a page sent before the core was there', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { host, asked } = await deferredHost(async () => {
      await gate;
      return newCore();
    });
    const ws = await connect(host);
    // The socket asked for the core: it is loading, not loaded.
    expect(asked()).toBe(1);
    const got = answers(ws, 2);
    ws.send(JSON.stringify({ t: 'req', id: 1, name: 'app.state', input: {} }));
    ws.send(JSON.stringify({ t: 'req', id: 2, name: 'settings.read', input: {} }));
    await new Promise((r) => setTimeout(r, 50));
    release();
    const byId = new Map((await got).map((answer) => [answer.id, answer]));
    const first = byId.get(1)!;
    const second = byId.get(2)!;
    expect(first).toMatchObject({ id: 1, ok: true });
    expect((first.result as { host: string }).host).toBe('browser');
    expect(second).toMatchObject({ id: 2, ok: true });
  });

  it('loads the core for a socket once no file is being sent (loading blocks the loop that sends them)', async () => {
    const { host, asked } = await deferredHost(async () => newCore());
    // A script still being sent: the reader has paused, so the response stays in flight.
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      get(`http://127.0.0.1:${host.port}/assets/big.js?token=${host.token}`, (res) => {
        res.pause();
        resolve(res);
      }).on('error', reject);
    });
    const ws = await connect(host);
    const got = answers(ws, 1);
    ws.send(JSON.stringify({ t: 'req', id: 1, name: 'app.state', input: {} }));
    await new Promise((r) => setTimeout(r, 100));
    expect(asked()).toBe(0);
    // The script is read to its end: the core loads, and the early request is answered.
    response.resume();
    await new Promise((r) => response.on('end', r));
    const [answer] = await got;
    expect(answer).toMatchObject({ id: 1, ok: true });
    expect(asked()).toBe(1);
  });

  it('loads the core by its deadline when no page comes', async () => {
    const { asked } = await deferredHost(async () => newCore(), 30);
    await until(() => asked() > 0);
    expect(asked()).toBe(1);
  });

  it('waits for the socket of a page served with its first frame drawn, not for its files or the deadline set at start', async () => {
    // The deadline from the host's start falls while the page's first frame is being drawn.
    const { host, asked } = await firstFrameHost(100);
    const page = await (await fetch(`http://127.0.0.1:${host.port}/?token=${host.token}`)).text();
    // The early script is told to open its socket after that frame (src-renderer/early.ts).
    expect(page).toContain('<meta name="acp-entry" content="after-first-paint">');
    // Loading the core would take the cores that frame is laid out and rastered on.
    await new Promise((r) => setTimeout(r, 400));
    expect(asked()).toBe(0);
    // The frame is on the screen: the early script's socket asks, and is answered.
    const ws = await connect(host);
    const got = answers(ws, 1);
    ws.send(JSON.stringify({ t: 'req', id: 1, name: 'app.state', input: {} }));
    expect((await got)[0]).toMatchObject({ id: 1, ok: true });
    expect(asked()).toBe(1);
  });

  it('is not put off for ever by a page asked for again and again before its socket asks', async () => {
    const { host, asked } = await firstFrameHost(60_000);
    // Reloads every half second for three seconds, none opening a socket: the core loads by the
    // deadline counted from the first, not from the last.
    for (let i = 0; i < 6; i++) {
      await (await fetch(`http://127.0.0.1:${host.port}/?token=${host.token}`)).text();
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(asked()).toBe(1);
  });

  it('answers with why when the core could not be loaded', async () => {
    const { host } = await deferredHost(async () => {
      throw new Error('settings folder is not writable');
    });
    const ws = await connect(host);
    const got = answers(ws, 1);
    ws.send(JSON.stringify({ t: 'req', id: 7, name: 'app.state', input: {} }));
    const [answer] = await got;
    expect(answer).toMatchObject({ id: 7, ok: false, error: { code: 'failed', message: 'The app could not start: settings folder is not writable' } });
  });
});
