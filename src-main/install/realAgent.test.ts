import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRegistryIndex, parsePackageSpec, type RegistryAgent } from '../../src-shared/registry/schema';
import { Installer } from './installer';
import { probeAgent } from './probe';
import { detectNode, runTool } from './runtimes';

/**
 * One real agent from the bundled registry snapshot, installed through npm and asked
 * `initialize`. Opt-in, because it downloads a large package (a minute or more) and needs the
 * npm registry: set ACP_DESKTOP_REAL_AGENT=1 (and optionally ACP_DESKTOP_REAL_AGENT_ID, default
 * `gemini`). When the snapshot's exact version is no longer published, the latest one is used.
 */
const ENABLED = process.env.ACP_DESKTOP_REAL_AGENT === '1';
const AGENT_ID = process.env.ACP_DESKTOP_REAL_AGENT_ID ?? 'gemini';
const SNAPSHOT = resolve(import.meta.dirname, '../../resources/registry/registry.json');

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!ENABLED)(`a real npx agent from the registry (${AGENT_ID}); opt in with ACP_DESKTOP_REAL_AGENT=1`, () => {
  it(
    'installs with npm and answers initialize',
    async (context) => {
      const parsed = parseRegistryIndex(JSON.parse(readFileSync(SNAPSHOT, 'utf8')));
      if (!parsed.ok) throw new Error(parsed.error);
      let agent: RegistryAgent | undefined = parsed.index.agents.find((entry) => entry.id === AGENT_ID);
      if (!agent?.distribution.npx) throw new Error(`${AGENT_ID} has no npx distribution in the snapshot`);
      const node = await detectNode();
      if (!node.ok || !node.npm) return context.skip(`skipped: ${node.message}`);
      const { name } = parsePackageSpec(agent.distribution.npx.package);
      const view = await runTool(node.npm, ['view', agent.distribution.npx.package, 'version'], { timeoutMs: 30_000 });
      let spec = agent.distribution.npx.package;
      if (view.code !== 0 || !view.stdout.trim()) {
        const latest = await runTool(node.npm, ['view', name, 'version'], { timeoutMs: 30_000 });
        if (latest.code !== 0 || !latest.stdout.trim()) {
          return context.skip(`skipped: the npm registry is not reachable (${(latest.stderr || view.stderr).trim().split('\n')[0]})`);
        }
        const version = latest.stdout.trim().split('\n').pop()!.replace(/'/g, '');
        const original = spec;
        spec = `${name}@${version}`;
        agent = { ...agent, version, distribution: { ...agent.distribution, npx: { ...agent.distribution.npx, package: spec } } };
        console.warn(`${original} is not published (any more); installing ${spec}`);
      }
      const dataDir = mkdtempSync(join(tmpdir(), 'acp-real-agent-'));
      dirs.push(dataDir);
      const installer = new Installer({ dataDir, npmTimeoutMs: 10 * 60_000 });
      const installed = await installer.install(agent);
      expect(installed.manifest).toMatchObject({ distribution: 'npx', source: spec });
      const answer = await probeAgent(installer.launchSpec(installed), 90_000);
      expect(answer.protocolVersion).toBeGreaterThanOrEqual(1);
    },
    15 * 60_000,
  );
});
