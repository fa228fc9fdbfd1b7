import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeCore, type Harness } from '../testing/coreHarness';

/**
 * A real agent published on npm, started the way the registry says (`npx <package>`), through
 * the same AgentManager/AgentConnection as every agent: it must complete `initialize` and show
 * its sign-in methods. The package and version come from the bundled registry snapshot
 * (Claude Code's ACP adapter: small, and its `initialize` needs no account). Skipped, with
 * the reason, when the npm registry cannot be reached or npx is missing. Hard time limits: five
 * minutes for download plus `initialize`, six for the whole test.
 */
const SNAPSHOT = resolve(import.meta.dirname, '../../resources/registry/registry.json');
const FALLBACK = { package: '@zed-industries/claude-code-acp@0.16.0', args: [] as string[] };
const REGISTRY = 'https://registry.npmjs.org/';

function npxPackage(): { package: string; args: string[] } {
  try {
    const index = JSON.parse(readFileSync(SNAPSHOT, 'utf8')) as { agents: { id: string; distribution?: { npx?: { package: string; args?: string[] } } }[] };
    const npx = index.agents.find((agent) => agent.id === 'claude-code-acp')?.distribution?.npx;
    return npx ? { package: npx.package, args: npx.args ?? [] } : FALLBACK;
  } catch {
    return FALLBACK;
  }
}

async function unreachable(name: string): Promise<string | null> {
  try {
    execFileSync('npx', ['--version'], { stdio: 'ignore', timeout: 20_000 });
  } catch (error) {
    return `npx is not available (${(error as Error).message.split('\n')[0]})`;
  }
  const pkg = name.replace(/@[^@/]+$/, '');
  try {
    const response = await fetch(`${REGISTRY}${pkg.replace('/', '%2f')}`, { method: 'HEAD', signal: AbortSignal.timeout(5000) });
    return response.ok ? null : `the npm registry answered ${response.status} for ${pkg}`;
  } catch (error) {
    return `the npm registry (${REGISTRY}) cannot be reached: ${(error as Error).message}`;
  }
}

const spec = npxPackage();
const reason = await unreachable(spec.package);
let harness: Harness | undefined;
afterAll(async () => {
  await harness?.dispose();
});

describe(`a real agent from npm: ${spec.package}`, () => {
  it.skipIf(reason !== null)(
    `starts with npx, completes initialize and shows its auth methods${reason ? ` (skipped: ${reason})` : ''}`,
    async () => {
      harness = makeCore(
        [],
        {},
        {
          agents: [{ id: 'real', name: 'Real agent', command: 'npx', args: ['-y', spec.package, ...spec.args] }],
          core: { initializeTimeoutMs: 5 * 60_000 },
        },
      );
      const connection = await harness.core.agents.ensureRunning('real');
      const summary = harness.core.state().agents.find((agent) => agent.id === 'real')!;
      expect(summary.process).toBe('ready');
      expect(summary.protocolVersion).toBe(1);
      expect(summary.agentInfo).toMatchObject({ name: expect.any(String) });
      expect(summary.authMethods?.length).toBeGreaterThan(0);
      for (const method of summary.authMethods!) expect(method).toMatchObject({ id: expect.any(String), name: expect.any(String), type: expect.any(String) });
      if (summary.agentInfo?.name === '@zed-industries/claude-code-acp') {
        // Its login is the legacy `_meta["terminal-auth"]` command (quirks/claudeCodeAcp.ts): shown as a terminal method.
        expect(
          summary.authMethods!.some(
            (m) => m.type === 'terminal' && typeof (m.raw as { _meta?: { 'terminal-auth'?: unknown } })._meta?.['terminal-auth'] === 'object',
          ),
        ).toBe(true);
      }
      console.info(
        `${String(summary.agentInfo?.name)} ${String(summary.agentInfo?.version)}: auth methods ${summary.authMethods!.map((m) => `${m.id} (${m.type})`).join(', ')}`,
      );
      expect(connection.isClosed).toBe(false);
    },
    6 * 60_000,
  );
});
