import { describe, expect, it } from 'vitest';
import type { Catalog, CatalogAgent } from '../../../src-shared/ipc/registryContract';
import { filterAgents, formatWhen, installBlocker, isRunning, progressText, sourceLabel } from './format';

const now = new Date('2026-11-21T12:00:00Z');

const agent = (extra: Partial<CatalogAgent>): CatalogAgent => ({
  id: 'a',
  name: 'Agent',
  version: '1.0.0',
  description: 'Does things',
  authors: [],
  distributions: ['npx'],
  installableDistributions: ['npx'],
  availableForPlatform: true,
  inRegistry: true,
  installed: null,
  updateAvailable: false,
  busy: null,
  lastError: null,
  ...extra,
});

const runtimes: Catalog['runtimes'] = {
  node: { ok: true, version: '20.0.0', message: null, canDownload: true, busy: null },
  uv: { ok: false, version: null, message: 'uv (uvx) was not found on this machine.', canDownload: true, busy: null },
};

describe('catalog formatting', () => {
  it('says when, in words', () => {
    expect(formatWhen('2026-11-21T11:59:30Z', now)).toBe('just now');
    expect(formatWhen('2026-11-21T11:55:00Z', now)).toBe('5 minutes ago');
    expect(formatWhen('2026-11-21T09:00:00Z', now)).toBe('3 hours ago');
    expect(formatWhen('2026-11-19T12:00:00Z', now)).toBe('2 days ago');
    expect(formatWhen('2026-01-02T00:00:00Z', now)).toBe('on 2026-01-02');
    expect(formatWhen(null, now)).toBe('an unknown time');
  });

  it('names the source of the catalog', () => {
    expect(sourceLabel({ source: 'live', fetchedAt: '2026-11-21T11:55:00Z', checkedAt: '2026-11-21T11:55:00Z' }, now)).toBe(
      'Live registry, downloaded 5 minutes ago',
    );
    expect(sourceLabel({ source: 'live', fetchedAt: '2026-11-19T12:00:00Z', checkedAt: '2026-11-21T11:59:59Z' }, now)).toBe(
      'Live registry, downloaded 2 days ago, checked just now',
    );
    expect(sourceLabel({ source: 'cache', fetchedAt: '2026-11-21T09:00:00Z', checkedAt: null }, now)).toMatch(/^Cached registry from 3 hours ago/);
    expect(sourceLabel({ source: 'bundled', fetchedAt: '2026-01-02T00:00:00Z', checkedAt: null }, now)).toBe(
      'Registry snapshot bundled with the app (on 2026-01-02)',
    );
  });

  it('describes download progress with bytes, total and speed', () => {
    const base = { agentId: 'a', action: 'install' as const, total: null, bytesPerSecond: 0, message: 'Starting…' };
    expect(progressText({ ...base, phase: 'downloading', bytes: 1536, total: 3 * 1024 * 1024, bytesPerSecond: 2048 })).toBe(
      'Downloading 1.5 KB of 3.0 MB · 2.0 KB/s',
    );
    expect(progressText({ ...base, phase: 'downloading', bytes: 10 })).toBe('Downloading 10 B');
    expect(progressText({ ...base, phase: 'installing', bytes: 0, message: 'npm: added 1 package' })).toBe('npm: added 1 package');
    expect(isRunning({ ...base, phase: 'extracting', bytes: 0 })).toBe(true);
    expect(isRunning({ ...base, phase: 'failed', bytes: 0 })).toBe(false);
    expect(isRunning(null)).toBe(false);
  });
});

describe('filterAgents', () => {
  const agents = [
    agent({ id: 'gemini', name: 'Gemini CLI', authors: ['Google'] }),
    agent({
      id: 'codex',
      name: 'Codex',
      distributions: ['binary'],
      installed: { version: '1.0.0', distribution: 'binary', installedAt: '', path: '' },
      updateAvailable: true,
    }),
    agent({ id: 'far', name: 'Far Away', distributions: ['binary'], installableDistributions: [], availableForPlatform: false }),
  ];
  const all = { query: '', show: 'all' as const, distribution: 'any' as const };

  it('searches name, id, description and authors, every word', () => {
    expect(filterAgents(agents, { ...all, query: 'google' }).map((a) => a.id)).toEqual(['gemini']);
    expect(filterAgents(agents, { ...all, query: 'gem cli' }).map((a) => a.id)).toEqual(['gemini']);
    expect(filterAgents(agents, { ...all, query: 'nothing' })).toEqual([]);
  });

  it('filters by state and distribution, keeping the order', () => {
    expect(filterAgents(agents, all).map((a) => a.id)).toEqual(['gemini', 'codex', 'far']);
    expect(filterAgents(agents, { ...all, show: 'installed' }).map((a) => a.id)).toEqual(['codex']);
    expect(filterAgents(agents, { ...all, show: 'updates' }).map((a) => a.id)).toEqual(['codex']);
    expect(filterAgents(agents, { ...all, show: 'available' }).map((a) => a.id)).toEqual(['gemini', 'codex']);
    expect(filterAgents(agents, { ...all, distribution: 'binary' }).map((a) => a.id)).toEqual(['codex', 'far']);
  });
});

describe('installBlocker', () => {
  it('explains a missing platform build or runtime', () => {
    const catalog = { runtimes, target: 'linux-x86_64' };
    expect(installBlocker(agent({ availableForPlatform: false, installableDistributions: [] }), catalog, undefined)).toBe(
      'Not available for this platform (linux-x86_64).',
    );
    expect(installBlocker(agent({}), catalog, 'npx')).toBeNull();
    expect(installBlocker(agent({ installableDistributions: ['uvx'] }), catalog, 'uvx')).toMatch(/uv \(uvx\) was not found/);
    expect(
      installBlocker(
        agent({}),
        { ...catalog, runtimes: { ...runtimes, node: { ok: false, version: null, message: 'Node.js was not found', canDownload: true, busy: null } } },
        'npx',
      ),
    ).toBe('Node.js was not found');
  });
});
