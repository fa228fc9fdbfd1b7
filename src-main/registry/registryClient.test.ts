import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRegistryServer, type RegistryServer } from '../../e2e/fixtures/registryServer';
import { DEFAULT_REGISTRY_URL, RegistryClient, registryUrl, REGISTRY_URL_ENV } from './registryClient';

let server: RegistryServer;
const dirs: string[] = [];
beforeAll(async () => {
  server = await startRegistryServer();
}, 60_000);
afterAll(async () => {
  await server?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'acp-registry-'));
  dirs.push(dir);
  return dir;
}

/** A port on which nothing listens (the "offline" registry). */
async function deadUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((ready) => probe.listen(0, '127.0.0.1', ready));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((done) => probe.close(done));
  return `http://127.0.0.1:${port}/registry.json`;
}

describe('registryUrl', () => {
  it('prefers the environment, then the setting, then the CDN', () => {
    expect(registryUrl(undefined, {})).toBe(DEFAULT_REGISTRY_URL);
    expect(registryUrl('https://mirror.example/registry.json', {})).toBe('https://mirror.example/registry.json');
    expect(registryUrl('https://mirror.example/registry.json', { [REGISTRY_URL_ENV]: 'http://127.0.0.1:1/r.json' })).toBe('http://127.0.0.1:1/r.json');
  });
});

describe('RegistryClient', () => {
  it('fetches live, caches with validators, then revalidates with a conditional request (304)', async () => {
    const dataDir = tempDir();
    let clock = new Date('2026-01-01T00:00:00Z');
    const client = new RegistryClient({ dataDir, url: () => server.indexUrl, now: () => clock });
    const before = server.requests.length;

    const first = await client.refresh();
    expect(first).toMatchObject({ source: 'live', fetchedAt: '2026-01-01T00:00:00.000Z', error: null, url: server.indexUrl });
    expect(first.index.agents.some((agent) => agent.id === 'fixture-zip')).toBe(true);
    const cache = JSON.parse(readFileSync(join(dataDir, 'registry-cache.json'), 'utf8'));
    expect(cache.etag).toMatch(/^"/);
    expect(cache.lastModified).toMatch(/GMT$/);
    // The raw index is cached, unknown fields included.
    expect(cache.index._generatedBy).toBe('registryServer.ts');
    expect(cache.index.agents[0]._testOnly).toBe(true);

    clock = new Date('2026-01-02T00:00:00Z');
    const second = await client.refresh();
    const indexRequests = server.requests.slice(before).filter((r) => r.path === '/registry.json');
    expect(indexRequests).toHaveLength(2);
    expect(indexRequests[0].headers['if-none-match']).toBeUndefined();
    expect(indexRequests[1].headers['if-none-match']).toBe(cache.etag);
    expect(indexRequests[1].headers['if-modified-since']).toBe(cache.lastModified);
    // 304: still the same download, confirmed now.
    expect(second).toMatchObject({ source: 'live', fetchedAt: '2026-01-01T00:00:00.000Z', checkedAt: '2026-01-02T00:00:00.000Z' });

    // A changed index is downloaded again.
    server.setAgentVersion('2.0.0');
    try {
      const third = await client.refresh();
      expect(third.fetchedAt).toBe('2026-01-02T00:00:00.000Z');
      expect(third.index.agents.find((a) => a.id === 'fixture-zip')?.version).toBe('2.0.0');
    } finally {
      server.setAgentVersion('1.0.0');
    }
  });

  it('shows the cache when the registry is unreachable, and says so', async () => {
    const dataDir = tempDir();
    let url = server.indexUrl;
    const online = new RegistryClient({ dataDir, url: () => url, now: () => new Date('2026-03-03T00:00:00Z') });
    await online.refresh();
    const dead = await deadUrl();
    // Same URL in the cache is required, so point both at the dead URL by rewriting the cache's URL.
    const cacheFile = join(dataDir, 'registry-cache.json');
    const cache = JSON.parse(readFileSync(cacheFile, 'utf8'));
    cache.url = dead;
    (await import('node:fs')).writeFileSync(cacheFile, JSON.stringify(cache));
    url = dead;

    const offline = new RegistryClient({ dataDir, url: () => url });
    expect(offline.current()).toMatchObject({ source: 'cache', fetchedAt: '2026-03-03T00:00:00.000Z', error: null });
    const result = await offline.refresh();
    expect(result.source).toBe('cache');
    expect(result.fetchedAt).toBe('2026-03-03T00:00:00.000Z');
    expect(result.error).toMatch(/^Could not reach the registry at http:\/\/127\.0\.0\.1:\d+\/registry\.json: ECONNREFUSED/);
    expect(result.index.agents.length).toBeGreaterThan(5);
  });

  it('falls back to the bundled snapshot when there is no cache', async () => {
    const client = new RegistryClient({ dataDir: tempDir(), url: await deadUrl().then((u) => () => u) });
    expect(client.current()).toMatchObject({ source: 'bundled', error: null });
    const result = await client.refresh();
    expect(result.source).toBe('bundled');
    expect(result.fetchedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(result.error).toMatch(/Could not reach the registry/);
    expect(result.index.agents.map((agent) => agent.id)).toContain('gemini');
    // Bundled icons are there, sanitized.
    expect(client.icon('gemini')).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg".*currentColor/s);
  });

  it('refuses a malformed index with a clear message and keeps what it had', async () => {
    const dataDir = tempDir();
    const client = new RegistryClient({ dataDir, url: () => server.malformedIndexUrl });
    const result = await client.refresh();
    expect(result.source).toBe('bundled');
    expect(result.error).toMatch(/^The registry index is malformed: agents: .* \(from http:\/\/127\.0\.0\.1:\d+\/malformed\/registry\.json\)$/);
    expect(existsSync(join(dataDir, 'registry-cache.json'))).toBe(false);
  });

  it('reports an HTTP error status and keeps the live index it already had', async () => {
    const client = new RegistryClient({ dataDir: tempDir(), url: () => server.indexUrl });
    await client.refresh();
    server.setIndexStatus(503);
    try {
      const result = await client.refresh();
      expect(result.source).toBe('live');
      expect(result.error).toMatch(/answered HTTP 503 Service Unavailable/);
    } finally {
      server.setIndexStatus(0);
    }
  });

  it('downloads icons, sanitizes them and keeps them on disk', async () => {
    const dataDir = tempDir();
    const client = new RegistryClient({ dataDir, url: () => server.indexUrl });
    await client.refresh();
    await client.refreshIcons();
    const bad = client.icon('bad-icon')!;
    expect(bad).toContain('<rect width="16" height="16" fill="currentColor"></rect>');
    expect(bad).not.toMatch(/script|alert|onload|onclick|tracker|image/);
    expect(readFileSync(join(dataDir, 'registry-icons', 'bad-icon.svg'), 'utf8')).toBe(bad);
    expect(client.icon('fixture-zip')).toContain('<circle');
    // A new client reads them back from disk.
    expect(new RegistryClient({ dataDir, url: () => server.indexUrl }).icon('bad-icon')).toBe(bad);
  });
});
