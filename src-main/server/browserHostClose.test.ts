import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { get, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../core/appCore';
import { createCore } from '../core/createCore';
import { startBrowserHost, type BrowserHost } from './browserHost';

/*
 * A page that is still loading a script when the host stops (a person's Ctrl-C, the e2e
 * fixtures' teardown) must get the whole script or nothing: a cut chunked response is what
 * Chromium logs as net::ERR_INCOMPLETE_CHUNKED_ENCODING (issue 28).
 */

const BIG = 8 * 1024 * 1024;
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function hostWithBigScript(closeGraceMs?: number): Promise<BrowserHost> {
  const renderer = mkdtempSync(join(tmpdir(), 'acp-renderer-'));
  mkdirSync(join(renderer, 'assets'));
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>ACP</title>');
  writeFileSync(join(renderer, 'assets', 'big.js'), 'x'.repeat(BIG));
  const core: AppCore = createCore({ dataDir: mkdtempSync(join(tmpdir(), 'acp-host-')), host: 'browser' });
  cleanup.push(() => core.dispose());
  const host = await startBrowserHost({ core, rendererDir: renderer, port: 0, ...(closeGraceMs !== undefined ? { closeGraceMs } : {}) });
  return host;
}

/** Starts loading the big script and stops reading it after its first bytes (a slow page). */
function startSlowDownload(host: BrowserHost): Promise<{ response: IncomingMessage; received: () => number; ended: Promise<'complete' | 'cut'> }> {
  return new Promise((resolve, reject) => {
    const request = get(`http://127.0.0.1:${host.port}/assets/big.js?token=${host.token}`, (response) => {
      let received = 0;
      const ended = new Promise<'complete' | 'cut'>((settle) => {
        response.on('end', () => settle(response.complete ? 'complete' : 'cut'));
        response.on('aborted', () => settle('cut'));
        response.on('error', () => settle('cut'));
      });
      response.on('data', (chunk: Buffer) => (received += chunk.length));
      response.once('data', () => {
        response.pause();
        resolve({ response, received: () => received, ended });
      });
    });
    request.on('error', reject);
  });
}

describe('browser host: stopping while a file is being sent', () => {
  it('a response in progress is finished, not cut, and then the host closes', async () => {
    const host = await hostWithBigScript();
    const download = await startSlowDownload(host);
    expect(download.received()).toBeLessThan(BIG);
    const closed = host.close();
    // The page reads on only once the host has begun to stop.
    await new Promise((r) => setTimeout(r, 200));
    download.response.resume();
    expect(await download.ended).toBe('complete');
    expect(download.received()).toBe(BIG);
    await closed;
  });

  it('a reader that never reads on does not keep the host from closing (it is cut after the grace)', async () => {
    const host = await hostWithBigScript(50);
    const download = await startSlowDownload(host);
    await host.close();
    download.response.resume();
    expect(await download.ended).toBe('cut');
  });

  it('static files are sent with their length, so a cut response can never pass for a whole one', async () => {
    const host = await hostWithBigScript();
    cleanup.push(() => host.close());
    // Identity, so the length is the file's own (compressed answers carry theirs: staticAssets.test.ts).
    const response = await fetch(`http://127.0.0.1:${host.port}/assets/big.js?token=${host.token}`, { headers: { 'accept-encoding': 'identity' } });
    expect(response.headers.get('content-length')).toBe(String(BIG));
    expect(response.headers.get('transfer-encoding')).toBeNull();
    expect((await response.arrayBuffer()).byteLength).toBe(BIG);
  });
});
