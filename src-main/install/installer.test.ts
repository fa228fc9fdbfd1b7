import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRegistryServer, type RegistryServer } from '../../e2e/fixtures/registryServer';
import type { InstallProgress } from '../../src-shared/ipc/registryContract';
import { parseRegistryIndex, type RegistryAgent } from '../../src-shared/registry/schema';
import { Installer, isNewer } from './installer';
import { probeAgent } from './probe';

const V2_FIXTURE = join(import.meta.dirname, '../../e2e/fixtures/fixture-agent-v2.mjs');

let server: RegistryServer;
const dirs: string[] = [];
beforeAll(async () => {
  server = await startRegistryServer();
}, 60_000);
afterAll(async () => {
  await server?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function agents(): Map<string, RegistryAgent> {
  const parsed = parseRegistryIndex(server.index());
  if (!parsed.ok) throw new Error(parsed.error);
  return new Map(parsed.index.agents.map((agent) => [agent.id, agent]));
}
const agent = (id: string) => agents().get(id)!;

/** Node's folder only: enough for npm and the fixture launcher, and no uvx. */
const NODE_ONLY_PATH = [dirname(process.execPath), '/usr/bin', '/bin'].join(delimiter);

function makeInstaller(extra: Partial<ConstructorParameters<typeof Installer>[0]> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'acp-install-'));
  dirs.push(dataDir);
  const progress: InstallProgress[] = [];
  const installer = new Installer({
    dataDir,
    platform: 'linux',
    arch: 'x64',
    env: { ...process.env, npm_config_registry: server.npmRegistryUrl, npm_config_cache: join(dataDir, 'npm-cache') },
    probeTimeoutMs: 15_000,
    onProgress: (p) => progress.push(p),
    ...extra,
  });
  /** Nothing but installed agents' folders: no temp work, no half-installed versions. */
  const leftovers = () => {
    const agentsDir = join(dataDir, 'agents');
    if (!existsSync(agentsDir)) return [];
    const tmp = existsSync(join(agentsDir, '.tmp')) ? readdirSync(join(agentsDir, '.tmp')) : [];
    return [...tmp.map((name) => `.tmp/${name}`), ...readdirSync(agentsDir).filter((name) => name !== '.tmp' && !installer.get(name))];
  };
  return { installer, dataDir, progress, leftovers };
}

async function expectFailure(id: string, pattern: RegExp) {
  const { installer, leftovers, progress } = makeInstaller();
  await expect(installer.install(agent(id))).rejects.toThrow(pattern);
  expect(installer.get(id)).toBeNull();
  expect(leftovers()).toEqual([]);
  expect(progress.at(-1)).toMatchObject({ agentId: id, phase: 'failed' });
  expect(installer.lastError(id)).toMatch(pattern);
  return installer;
}

describe('binary installs', () => {
  it('installs a .zip, and the agent starts and answers initialize', async () => {
    const { installer, progress, leftovers } = makeInstaller();
    const installed = await installer.install(agent('fixture-zip'));
    expect(installed.manifest).toMatchObject({
      agentId: 'fixture-zip',
      version: '1.0.0',
      distribution: 'binary',
      target: 'linux-x86_64',
      run: { type: 'binary', cmd: 'fixture-agent' },
    });
    expect(installed.dir).toMatch(/agents[/\\]fixture-zip[/\\]1\.0\.0$/);
    expect(installer.get('fixture-zip')?.dir).toBe(installed.dir);
    expect(leftovers()).toEqual([]);
    // Progress: bytes and a total while downloading, then done.
    const downloading = progress.filter((p) => p.phase === 'downloading' && p.bytes > 0);
    expect(downloading.length).toBeGreaterThan(0);
    expect(downloading.at(-1)!.total).toBe(downloading.at(-1)!.bytes);
    expect(progress.map((p) => p.phase)).toEqual(expect.arrayContaining(['downloading', 'extracting', 'done']));
    const launch = installer.launchSpec(installed);
    expect(launch.command).toBe(join(installed.dir, 'fixture-agent'));
    expect(launch.args).toEqual(['--delay', '0', '--name', 'fixture 1.0.0']);
    const answer = await probeAgent(launch, 15_000);
    expect(answer.agentName).toBe('fixture 1.0.0');
  });

  it('installs a .tar.gz with cmd in a subfolder and sets the exec bit', async () => {
    const { installer } = makeInstaller();
    const installed = await installer.install(agent('fixture-tgz'));
    const cmd = join(installed.dir, 'fixture', 'fixture-agent');
    expect(statSync(cmd).mode & 0o111).not.toBe(0);
    expect(readFileSync(join(installed.dir, 'fixture', 'current'), 'utf8')).toBe('1.0.0');
    const answer = await probeAgent(installer.launchSpec(installed), 15_000);
    expect(answer.protocolVersion).toBe(1);
  });

  it('merges launch overrides from settings', async () => {
    const { installer } = makeInstaller();
    const installed = await installer.install(agent('fixture-zip'));
    const launch = installer.launchSpec(installed, { command: '/opt/custom', args: ['--verbose'], env: { A: '1' } });
    expect(launch).toEqual({ command: '/opt/custom', args: ['--delay', '0', '--name', 'fixture 1.0.0', '--verbose'], env: { A: '1' } });
  });

  it('says why on a 404', () => expectFailure('bad-404', /HTTP 404 Not Found for http:\/\/127\.0\.0\.1:\d+\/archives\/missing\.zip/));
  it('says why on a truncated download', () => expectFailure('bad-truncated', /cut off after .* of 3\.0 MiB/));
  it('refuses zip-slip', () => expectFailure('bad-zip-slip', /refused: the entry "\.\.\/\.\.\/evil\.txt" climbs out/));
  it('refuses absolute paths in a zip', () => expectFailure('bad-zip-absolute', /"\/tmp\/evil\.txt" is an absolute path/));
  it('refuses a zip link pointing outside', () => expectFailure('bad-zip-symlink', /"escape" links outside/));
  it('refuses tar-slip', () => expectFailure('bad-tar-slip', /climbs out/));
  it('refuses absolute paths in a tar', () => expectFailure('bad-tar-absolute', /absolute path/));
  it('refuses a tar link pointing outside', () => expectFailure('bad-tar-symlink', /"escape" links outside/));
  it('refuses a tar link to an absolute path', () => expectFailure('bad-tar-symlink-abs', /links to the absolute path \/etc\/passwd/));
  it('refuses a tar hard link pointing outside', () => expectFailure('bad-tar-hardlink', /"h" links outside/));
  it('fails clearly when the archive lacks cmd', () => expectFailure('bad-no-cmd', /does not contain its command "\.\/fixture-agent"/));
  it('fails clearly for another platform', () =>
    expectFailure('other-platform', /not available for this platform \(linux-x86_64\): it has builds for freebsd-x86_64/));

  it('cancels a download midway and leaves nothing', async () => {
    const { installer, leftovers, progress } = makeInstaller();
    const pending = installer.install(agent('fixture-slow'));
    const started = Date.now();
    while (!progress.some((p) => p.phase === 'downloading' && p.bytes > 0) && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 10));
    expect(installer.busy('fixture-slow')?.phase).toBe('downloading');
    expect(installer.cancel('fixture-slow')).toBe(true);
    await expect(pending).rejects.toThrow(/cancelled/);
    expect(progress.at(-1)).toMatchObject({ phase: 'cancelled' });
    expect(installer.busy('fixture-slow')).toBeNull();
    expect(leftovers()).toEqual([]);
    expect(installer.lastError('fixture-slow')).toBeNull();
  });

  it('refuses a second operation on the same agent while one runs', async () => {
    const { installer } = makeInstaller();
    const first = installer.install(agent('fixture-slow'));
    await expect(installer.install(agent('fixture-slow'))).rejects.toThrow(/already being installed/);
    installer.cancel('fixture-slow');
    await expect(first).rejects.toThrow(/cancelled/);
  });
});

describe('updates and uninstall', () => {
  it('updates beside the old version, switches after initialize, and refuses a broken update', async () => {
    server.setAgentVersion('1.0.0');
    const { installer, dataDir, progress } = makeInstaller();
    const first = await installer.install(agent('fixture-zip'));
    expect(first.manifest.version).toBe('1.0.0');
    await expect(installer.update(agent('fixture-zip'))).rejects.toThrow(/already the newest/);

    server.setAgentVersion('1.1.0');
    try {
      const updated = await installer.update(agent('fixture-zip'));
      expect(updated.manifest.version).toBe('1.1.0');
      expect(installer.get('fixture-zip')?.manifest.version).toBe('1.1.0');
      expect(progress.map((p) => p.phase)).toContain('verifying');
      expect((await probeAgent(installer.launchSpec(updated), 15_000)).agentName).toBe('fixture 1.1.0');
      installer.cleanup(0);
      expect(readdirSync(join(dataDir, 'agents', 'fixture-zip')).sort()).toEqual(['1.1.0', 'current.json']);

      server.setAgentVersion('1.2.0', { broken: true });
      await expect(installer.update(agent('fixture-zip'))).rejects.toThrow(
        /1\.2\.0 was not switched to: it did not answer initialize.*1\.1\.0 is still installed/s,
      );
      expect(installer.get('fixture-zip')?.manifest.version).toBe('1.1.0');
      expect(existsSync(join(dataDir, 'agents', 'fixture-zip', '1.2.0'))).toBe(false);
    } finally {
      server.setAgentVersion('1.0.0');
    }
  });

  it('the check after an update speaks the agent’s protocol setting (a v2-only agent set to v2 passes it)', async () => {
    const v2Only = { command: process.execPath, args: [V2_FIXTURE, '--v2-only'], env: {} };
    expect((await probeAgent(v2Only, 15_000, 'v2')).protocolVersion).toBe(2);
    // Spoken to in v1 (what the check always sent), the same agent is refused: an update of it would be thrown away.
    await expect(probeAgent(v2Only, 15_000, 'v1')).rejects.toThrow(/protocol/i);
    server.setAgentVersion('1.0.0');
    const asked: string[] = [];
    const { installer } = makeInstaller({ protocol: (agentId) => (asked.push(agentId), 'auto') });
    await installer.install(agent('fixture-zip'));
    server.setAgentVersion('1.1.0');
    try {
      expect((await installer.update(agent('fixture-zip'))).manifest.version).toBe('1.1.0');
      expect(asked).toEqual(['fixture-zip']);
    } finally {
      server.setAgentVersion('1.0.0');
    }
  });

  it('uninstalls: files and the agent’s secrets go, other agents’ secrets stay', async () => {
    const { installer, dataDir } = makeInstaller();
    await installer.install(agent('fixture-zip'));
    mkdirSync(join(dataDir, 'secrets'));
    writeFileSync(join(dataDir, 'secrets', 'fixture-zip.json'), '{}');
    writeFileSync(join(dataDir, 'secrets', 'fixture-zip-other.json'), '{}');
    await installer.uninstall('fixture-zip');
    expect(installer.get('fixture-zip')).toBeNull();
    expect(existsSync(join(dataDir, 'agents', 'fixture-zip'))).toBe(false);
    expect(readdirSync(join(dataDir, 'secrets'))).toEqual(['fixture-zip-other.json']);
    await expect(installer.uninstall('fixture-zip')).rejects.toThrow(/not installed/);
  });

  it('cleans up interrupted work older than an hour, and leaves fresh work alone', () => {
    const { installer, dataDir } = makeInstaller();
    const stale = join(dataDir, 'agents', '.tmp', 'gone-abc');
    const fresh = join(dataDir, 'agents', '.tmp', 'busy-def');
    mkdirSync(join(stale, 'payload'), { recursive: true });
    mkdirSync(fresh, { recursive: true });
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    utimesSync(stale, twoHoursAgo, twoHoursAgo);
    installer.cleanup();
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
  });

  it('compares versions with semver', () => {
    expect(isNewer('1.10.0', '1.9.0')).toBe(true);
    expect(isNewer('1.0.0', '1.0.0-beta.2')).toBe(true);
    expect(isNewer('1.0.0-beta.2', '1.0.0')).toBe(false);
    expect(isNewer('0.9.2', '0.10.0')).toBe(false);
  });
});

describe('npx installs', () => {
  it('installs the exact package version with npm and runs its bin with node', async () => {
    const { installer, leftovers } = makeInstaller();
    const installed = await installer.install(agent('fixture-npx'));
    expect(installed.manifest).toMatchObject({
      distribution: 'npx',
      source: 'acp-fixture-agent@1.0.0',
      run: { type: 'node', script: 'node_modules/acp-fixture-agent/agent.mjs', node: expect.stringMatching(/node$/) },
    });
    expect(JSON.parse(readFileSync(join(installed.dir, 'node_modules', 'acp-fixture-agent', 'package.json'), 'utf8')).version).toBe('1.0.0');
    expect(leftovers()).toEqual([]);
    const launch = installer.launchSpec(installed);
    expect(launch.env).toEqual({ FIXTURE_FROM: 'npx' });
    expect((await probeAgent(launch, 15_000)).agentName).toBe('fixture 1.0.0');
  }, 120_000);

  it(
    'shows npm’s error output when the package does not exist',
    () => expectFailure('bad-npx', /npm install acp-no-such-package@1\.0\.0 failed \(exit code \d+\):\n.*(404|E404)/s),
    120_000,
  );

  it('a pinned version npm no longer serves: installs the newest of the same line, and says so', async () => {
    const { installer } = makeInstaller();
    const stale = { ...agent('fixture-npx'), version: '1.1.9', distribution: { npx: { package: 'acp-fixture-agent@1.1.9' } } } as RegistryAgent;
    const installed = await installer.install(stale);
    expect(installed.manifest.source).toBe('acp-fixture-agent@1.2.0');
    expect(JSON.parse(readFileSync(join(installed.dir, 'node_modules', 'acp-fixture-agent', 'package.json'), 'utf8')).version).toBe('1.2.0');
    expect(installer.lastError('fixture-npx')).toBeNull();
  }, 120_000);

  it('an executable named "../dist/…" is read as npm reads it (inside the package), not refused', async () => {
    const { installer } = makeInstaller();
    const upLevel = { ...agent('fixture-npx'), version: '2.0.0', distribution: { npx: { package: 'acp-fixture-agent@2.0.0' } } } as RegistryAgent;
    const installed = await installer.install(upLevel);
    expect(installed.manifest.source).toBe('acp-fixture-agent@2.0.0');
    expect((await probeAgent(installer.launchSpec(installed), 15_000)).agentName).toMatch(/fixture/);
  }, 120_000);

  it('an `engines` mismatch is a warning the person can install past, not a wall', async () => {
    const { installer, progress } = makeInstaller();
    const needs99 = { ...agent('fixture-npx'), version: '3.0.0', distribution: { npx: { package: 'acp-fixture-agent@3.0.0' } } } as RegistryAgent;
    await expect(installer.install(needs99)).rejects.toThrow(/declares Node\.js >=99; this machine has .*“Install anyway”/);
    expect(installer.lastErrorReason('fixture-npx')).toBe('engines');
    const installed = await installer.install(needs99, undefined, { ignoreEngines: true });
    expect(installed.manifest.source).toBe('acp-fixture-agent@3.0.0');
    expect(progress.at(-1)).toMatchObject({ phase: 'done', message: expect.stringMatching(/declares Node\.js >=99 and runs with this machine's/) });
    // It does run on this Node.js: it answers initialize.
    expect((await probeAgent(installer.launchSpec(installed), 15_000)).agentName).toMatch(/fixture/);
  }, 120_000);

  it('says clearly when Node.js is missing', async () => {
    const { installer, leftovers } = makeInstaller({ env: { PATH: '/nonexistent' } });
    await expect(installer.install(agent('fixture-npx'))).rejects.toThrow(/Node\.js was not found on this machine/);
    expect(leftovers()).toEqual([]);
  });
});

describe('uvx installs', () => {
  it('says clearly when uv is missing', async () => {
    const { installer } = makeInstaller({
      env: {
        PATH: NODE_ONLY_PATH.split(delimiter)
          .filter((dir) => !existsSync(join(dir, 'uvx')))
          .join(delimiter),
      },
    });
    await expect(installer.install(agent('fixture-uvx'))).rejects.toThrow(/uv \(uvx\) was not found on this machine/);
  });

  it('runs the package through uvx when uv is there', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'acp-fake-uv-'));
    dirs.push(bin);
    for (const name of ['uv', 'uvx']) {
      writeFileSync(join(bin, name), '#!/bin/sh\necho "uv 0.9.0"\n');
      chmodSync(join(bin, name), 0o755);
    }
    const { installer } = makeInstaller({ env: { PATH: [bin, NODE_ONLY_PATH].join(delimiter) } });
    const installed = await installer.install(agent('fixture-uvx'));
    expect(installed.manifest.run).toEqual({ type: 'uvx', package: 'acp-fixture-agent', uvx: join(bin, 'uvx') });
    const launch = installer.launchSpec(installed);
    expect(launch.command).toBe(join(bin, 'uvx'));
    expect(launch.args).toEqual(['acp-fixture-agent', '--delay', '0', '--name', 'fixture 1.0.0']);
  });
});

describe('runtime downloads into the app folder', () => {
  it('downloads the Node.js LTS (checksum verified) and installs an npx agent with it when the machine has none', async () => {
    const { installer, dataDir, progress } = makeInstaller({
      env: {
        PATH: '/nonexistent',
        ACP_DESKTOP_NODE_MIRROR: server.nodeMirrorUrl,
        npm_config_registry: server.npmRegistryUrl,
        npm_config_cache: join(tmpdir(), 'acp-npm-cache-runtime'),
      },
    });
    expect(await installer.detectNode()).toMatchObject({ ok: false, message: expect.stringMatching(/Node\.js was not found/) });
    expect(await installer.installRuntime('node')).toEqual({ version: '22.1.0' });
    expect(progress.filter((p) => p.agentId === '@node').map((p) => p.phase)).toEqual(
      expect.arrayContaining(['resolving', 'downloading', 'verifying', 'extracting', 'done']),
    );
    const node = join(dataDir, 'runtimes', 'node', '22.1.0', 'bin', 'node');
    expect(await installer.detectNode()).toMatchObject({ ok: true, node, version: '22.1.0', npmVersion: '10.7.0' });
    expect(readdirSync(join(dataDir, 'runtimes', '.tmp'))).toEqual([]);

    const installed = await installer.install(agent('fixture-npx'));
    expect(installed.manifest.run).toMatchObject({ type: 'node', node });
    const launch = installer.launchSpec(installed);
    expect(launch.command).toBe(node);
    expect(launch.env.PATH?.split(delimiter)[0]).toBe(dirname(node));
    expect((await probeAgent(launch, 15_000)).agentName).toBe('fixture 1.0.0');
  }, 120_000);

  it('refuses a Node.js download whose checksum does not match', async () => {
    const { installer, dataDir } = makeInstaller({ env: { PATH: '/nonexistent', ACP_DESKTOP_NODE_MIRROR: server.badNodeMirrorUrl } });
    await expect(installer.installRuntime('node')).rejects.toThrow(/does not match its published SHA-256 checksum/);
    expect(existsSync(join(dataDir, 'runtimes', 'node'))).toBe(false);
    expect(installer.lastError('@node')).toMatch(/checksum/);
  });

  it('says why when the mirror is unreachable', async () => {
    const closed = createServer();
    await new Promise<void>((ready) => closed.listen(0, '127.0.0.1', ready));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((done) => closed.close(done));
    const { installer } = makeInstaller({ env: { PATH: '/nonexistent', ACP_DESKTOP_NODE_MIRROR: `http://127.0.0.1:${port}/dist` } });
    await expect(installer.installRuntime('node')).rejects.toThrow(
      new RegExp(`Could not reach http://127\\.0\\.0\\.1:${port}/dist/index\\.json: ECONNREFUSED`),
    );
  });

  it('downloads uv and then installs a uvx agent with it', async () => {
    const { installer, dataDir } = makeInstaller({ env: { PATH: NODE_ONLY_PATH, ACP_DESKTOP_UV_MIRROR: server.uvMirrorUrl } });
    expect((await installer.detectUv()).ok).toBe(false);
    expect(await installer.installRuntime('uv')).toEqual({ version: '0.9.9' });
    const uvx = join(dataDir, 'runtimes', 'uv', 'uvx');
    expect(await installer.detectUv()).toMatchObject({ ok: true, uvx });
    const installed = await installer.install(agent('fixture-uvx'));
    expect(installer.launchSpec(installed).command).toBe(uvx);
  });
});
