import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRegistryServer, type RegistryServer } from '../../e2e/fixtures/registryServer';
import type { Catalog, InstallProgress } from '../../src-shared/ipc/registryContract';
import { dispatch } from '../core/dispatch';
import { readAgentEnv, writeAgentEnv } from '../store/secretStore';
import { makeCore } from '../testing/coreHarness';

let server: RegistryServer;
const cleanups: (() => Promise<void>)[] = [];
beforeAll(async () => {
  server = await startRegistryServer();
  // The core reads these when it attaches the registry (a process per test file: no leaks).
  process.env.ACP_DESKTOP_REGISTRY_URL = server.indexUrl;
  process.env.npm_config_registry = server.npmRegistryUrl;
}, 60_000);
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
  await server?.close();
});

function harness() {
  const h = makeCore();
  cleanups.push(() => h.core.dispose());
  const progress: InstallProgress[] = [];
  const catalogs: Catalog[] = [];
  h.core.on((name, payload) => {
    if (name === 'install.progress') progress.push(payload as InstallProgress);
    if (name === 'registry.catalog') catalogs.push(payload as Catalog);
  });
  return { ...h, progress, catalogs };
}

describe('the registry through the core', () => {
  it('catalog → install → start a session → update → uninstall', async () => {
    const h = harness();
    const { core } = h;

    // The first list answers at once from what is on disk and refreshes in the background.
    const first = await core.handlers['registry.list']({});
    expect(['bundled', 'cache', 'live']).toContain(first.source);
    await h.waitFor(() => h.catalogs.some((c) => c.source === 'live'), 'the live catalog');
    const catalog = await core.handlers['registry.refresh']({});
    expect(catalog).toMatchObject({ source: 'live', url: server.indexUrl, error: null, target: expect.stringMatching(/-/) });
    expect(catalog.agentsDir).toBe(join(h.dataDir, 'agents'));
    const zip = catalog.agents.find((a) => a.id === 'fixture-zip')!;
    expect(zip).toMatchObject({
      name: 'Fixture (zip)',
      version: '1.0.0',
      distributions: ['binary'],
      availableForPlatform: true,
      installed: null,
      updateAvailable: false,
      inRegistry: true,
      authors: ['ACP Desktop tests'],
      license: 'MIT',
      repository: 'https://example.com/fixture',
    });
    expect(catalog.agents.find((a) => a.id === 'other-platform')).toMatchObject({ availableForPlatform: false, installableDistributions: [] });
    expect(catalog.runtimes.node).toMatchObject({ ok: true, version: expect.stringMatching(/^\d+\./) });

    // Install: progress events, then the agent is in the sidebar list and runnable.
    expect(await core.handlers['agent.install']({ agentId: 'fixture-zip' })).toEqual({ version: '1.0.0' });
    expect(h.progress.some((p) => p.agentId === 'fixture-zip' && p.phase === 'downloading' && p.total !== null && p.bytes > 0)).toBe(true);
    expect(h.progress.at(-1)).toMatchObject({ agentId: 'fixture-zip', phase: 'done' });
    const agent = core.state().agents.find((a) => a.id === 'fixture-zip');
    expect(agent).toMatchObject({ source: 'registry', runnable: true, version: '1.0.0', name: 'Fixture (zip)' });
    expect(agent?.icon).toContain('<circle');
    const installed = (await core.handlers['registry.list']({})).agents.find((a) => a.id === 'fixture-zip')!;
    expect(installed.installed).toMatchObject({ version: '1.0.0', distribution: 'binary', path: join(h.dataDir, 'agents', 'fixture-zip', '1.0.0') });

    // Start a session with it, like any agent.
    const { sessionId } = await core.handlers['session.new']({ agentId: 'fixture-zip', cwd: h.workspace });
    await h.waitFor(() => h.states.get(sessionId)?.acpSessionId != null, 'the session to connect', 15_000);
    expect(core.state().agents.find((a) => a.id === 'fixture-zip')?.agentInfo).toMatchObject({ name: 'fixture 1.0.0' });

    // Update: the catalog says so; the update switches after initialize.
    server.setAgentVersion('1.1.0');
    try {
      const newer = await core.handlers['registry.refresh']({});
      expect(newer.agents.find((a) => a.id === 'fixture-zip')).toMatchObject({ version: '1.1.0', updateAvailable: true, installed: { version: '1.0.0' } });
      expect(await core.handlers['agent.update']({ agentId: 'fixture-zip' })).toEqual({ version: '1.1.0' });
      expect(core.state().agents.find((a) => a.id === 'fixture-zip')?.version).toBe('1.1.0');
      // The running agent keeps its version until restarted, and the person is told.
      expect(core.state().notices.some((n) => /updated to 1\.1\.0; restart the agent/.test(n.message))).toBe(true);
      const after = await core.handlers['registry.list']({});
      expect(after.agents.find((a) => a.id === 'fixture-zip')).toMatchObject({ updateAvailable: false, installed: { version: '1.1.0' } });
    } finally {
      server.setAgentVersion('1.0.0');
    }

    // Uninstall: the process stops, files and secrets go, the agent leaves the list.
    mkdirSync(join(h.dataDir, 'secrets'), { recursive: true });
    writeFileSync(join(h.dataDir, 'secrets', 'fixture-zip.json'), '{}');
    writeAgentEnv(core.agents.secrets, 'fixture-zip', { FIXTURE_KEY: 'secret' });
    writeAgentEnv(core.agents.secrets, 'fixture', { FIXTURE_KEY: 'kept' });
    expect(await core.handlers['agent.uninstall']({ agentId: 'fixture-zip' })).toEqual({ ok: true });
    expect(core.state().agents.some((a) => a.id === 'fixture-zip')).toBe(false);
    expect(existsSync(join(h.dataDir, 'agents', 'fixture-zip'))).toBe(false);
    expect(existsSync(join(h.dataDir, 'secrets', 'fixture-zip.json'))).toBe(false);
    expect(readAgentEnv(core.agents.secrets, 'fixture-zip')).toEqual({});
    expect(readAgentEnv(core.agents.secrets, 'fixture')).toEqual({ FIXTURE_KEY: 'kept' });
  }, 60_000);

  it('a catalog pin npm no longer has: the catalog says which version was installed, and offers no update for it', async () => {
    const { core } = harness();
    await core.handlers['registry.refresh']({});
    expect(await core.handlers['agent.install']({ agentId: 'fixture-npx-gone' })).toEqual({ version: '1.1.9' });
    const card = (await core.handlers['registry.list']({})).agents.find((a) => a.id === 'fixture-npx-gone');
    expect(card).toMatchObject({ version: '1.1.9', updateAvailable: false, installed: { version: '1.1.9', packageVersion: '1.2.0', distribution: 'npx' } });
    // Installed as pinned: nothing to add.
    expect(await core.handlers['agent.install']({ agentId: 'fixture-npx' })).toEqual({ version: '1.0.0' });
    const pinned = (await core.handlers['registry.list']({})).agents.find((a) => a.id === 'fixture-npx');
    expect(pinned?.installed).not.toHaveProperty('packageVersion');
  }, 120_000);

  it('uninstalling an agent with an open session: the session is told, and a prompt gets a clear error, not a hang', async () => {
    const h = harness();
    const { core } = h;
    await core.handlers['registry.refresh']({});
    await core.handlers['agent.install']({ agentId: 'fixture-zip' });
    const { sessionId } = await core.handlers['session.new']({ agentId: 'fixture-zip', cwd: h.workspace });
    await h.waitFor(() => h.states.get(sessionId)?.acpSessionId != null, 'the session to connect', 15_000);
    expect(await core.handlers['agent.uninstall']({ agentId: 'fixture-zip' })).toEqual({ ok: true });
    await h.waitFor(() => Boolean(h.states.get(sessionId)?.entries.some((e) => e.kind === 'notice' && /uninstalled/.test(e.message))), 'the notice');
    expect(h.states.get(sessionId)!.entries.filter((e) => e.kind === 'notice')).toContainEqual(
      expect.objectContaining({ level: 'warning', message: 'Fixture (zip) was uninstalled. Install it again to continue this session.' }),
    );
    const answer = await dispatch(core.handlers, 'session.prompt', { sessionId, prompt: [{ type: 'text', text: 'hello?' }] });
    expect(answer).toMatchObject({ ok: false, error: { message: 'Fixture (zip) was uninstalled. Install it again to continue this session.' } });
    // Installed again: the session goes on.
    await core.handlers['agent.install']({ agentId: 'fixture-zip' });
    await core.handlers['session.prompt']({ sessionId, prompt: [{ type: 'text', text: 'hello again' }] });
    await h.waitFor(() => Boolean(h.states.get(sessionId)?.entries.some((e) => e.kind === 'stop')), 'a turn after reinstalling', 15_000);
  }, 60_000);

  it('first run of an agent that needs sign-in: its methods are there at once', async () => {
    const h = harness();
    await h.core.handlers['registry.refresh']({});
    await h.core.handlers['agent.install']({ agentId: 'fixture-auth' });
    const { sessionId } = await h.core.handlers['session.new']({ agentId: 'fixture-auth', cwd: h.workspace });
    await h.waitFor(() => Boolean(h.states.get(sessionId)?.authMethods?.length), 'the sign-in methods', 15_000);
    const methods = h.states.get(sessionId)!.authMethods!.map((method) => method.id);
    expect(methods).toEqual(expect.arrayContaining(['fixture-login', 'fixture-terminal']));
  }, 60_000);

  it('answers bad input and failures with clear errors, and the app keeps working', async () => {
    const h = harness();
    await h.core.handlers['registry.refresh']({});
    const bad = await dispatch(h.core.handlers, 'agent.install', { agentId: '../../etc' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    const missing = await dispatch(h.core.handlers, 'agent.install', { agentId: 'no-such-agent' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'failed', message: '"no-such-agent" is not in the registry.' } });
    const slip = await dispatch(h.core.handlers, 'agent.install', { agentId: 'bad-zip-slip' });
    expect(slip).toMatchObject({ ok: false, error: { message: expect.stringMatching(/refused/) } });
    const catalog = await h.core.handlers['registry.list']({});
    expect(catalog.agents.find((a) => a.id === 'bad-zip-slip')).toMatchObject({ installed: null, busy: null, lastError: expect.stringMatching(/refused/) });
    const cancel = await dispatch(h.core.handlers, 'agent.cancelInstall', { agentId: 'fixture-zip' });
    expect(cancel).toMatchObject({ ok: false, error: { message: expect.stringMatching(/Nothing is being installed/) } });
    // A distribution the entry does not have is refused by name.
    const uvx = await dispatch(h.core.handlers, 'agent.install', { agentId: 'fixture-uvx', distribution: 'binary' });
    expect(uvx).toMatchObject({ ok: false, error: { message: expect.stringMatching(/has no binary distribution/) } });
    // The custom fixture agent still works.
    const sessionId = await h.newSession();
    expect(h.state(sessionId).acpSessionId).toBeTruthy();
  }, 60_000);
});
