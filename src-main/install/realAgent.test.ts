import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRegistryIndex, parsePackageSpec, type RegistryAgent } from '../../src-shared/registry/schema';
import { Installer } from './installer';
import { probeAgent } from './probe';
import { detectNode, runTool } from './runtimes';

/**
 * Real agents from the bundled registry snapshot, installed through the app's installer (which
 * replaces a pinned npm version that is no longer published with the newest of the same line,
 * else the newest release, and says so) and asked `initialize` with the catalog's own arguments.
 * Opt-in, because each downloads a large package (a minute or more) and needs the npm registry:
 * set ACP_DESKTOP_REAL_AGENT=1, and ACP_DESKTOP_REAL_AGENT_ID to one id, a comma list, or `all`
 * (every npx agent of the six the compatibility suite covers). The default is `gemini`.
 * The binary agents (Codex, OpenCode) download from GitHub releases, which this machine cannot reach.
 */
const ENABLED = process.env.ACP_DESKTOP_REAL_AGENT === '1';
const NPX_AGENTS = ['gemini', 'qwen-code', 'claude-code-acp', 'github-copilot'];
const ids = process.env.ACP_DESKTOP_REAL_AGENT_ID ?? 'gemini';
const AGENT_IDS = ids === 'all' ? NPX_AGENTS : ids.split(',').map((id) => id.trim());
const SNAPSHOT = resolve(import.meta.dirname, '../../resources/registry/registry.json');

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!ENABLED)(`real npx agents from the registry snapshot (${AGENT_IDS.join(', ')}); opt in with ACP_DESKTOP_REAL_AGENT=1`, () => {
  for (const agentId of AGENT_IDS)
    it(
      `${agentId}: installs from the catalog entry with npm and answers initialize`,
      async (context) => {
        const parsed = parseRegistryIndex(JSON.parse(readFileSync(SNAPSHOT, 'utf8')));
        if (!parsed.ok) throw new Error(parsed.error);
        const agent: RegistryAgent | undefined = parsed.index.agents.find((entry) => entry.id === agentId);
        if (!agent?.distribution.npx) throw new Error(`${agentId} has no npx distribution in the snapshot`);
        const node = await detectNode();
        if (!node.ok || !node.npm) return context.skip(`skipped: ${node.message}`);
        const { name } = parsePackageSpec(agent.distribution.npx.package);
        const reachable = await runTool(node.npm, ['view', name, 'version'], { timeoutMs: 30_000 });
        if (reachable.code !== 0 || !reachable.stdout.trim())
          return context.skip(`skipped: the npm registry is not reachable (${reachable.stderr.trim().split('\n')[0]})`);
        const dataDir = mkdtempSync(join(tmpdir(), 'acp-real-agent-'));
        dirs.push(dataDir);
        const installer = new Installer({ dataDir, npmTimeoutMs: 10 * 60_000 });
        // As the person who chooses “Install anyway” when the package declares a newer Node.js (Qwen Code).
        const installed = await installer.install(agent, undefined, { ignoreEngines: true });
        expect(installed.manifest).toMatchObject({ distribution: 'npx' });
        expect(installed.manifest.source).toMatch(new RegExp(`^${name.replace(/[/.]/g, '\\$&')}@`));
        if (installed.manifest.source !== agent.distribution.npx.package)
          console.warn(`${agent.distribution.npx.package} is not published (any more); the installer chose ${installed.manifest.source}`);
        const answer = await probeAgent(installer.launchSpec(installed), 90_000);
        expect(answer.protocolVersion).toBeGreaterThanOrEqual(1);
      },
      15 * 60_000,
    );
});
