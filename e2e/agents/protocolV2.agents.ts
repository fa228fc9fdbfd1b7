/**
 * Issue 14's opt-in check against real agents: the two adapters that already speak ACP v2
 * settle on version 2 under `auto` (offered in the v2 shape) and on version 1 under `v1`, and
 * either way the app reads one normalized profile. Part of `npm run test:agents`; skipped with
 * its reason where the npm registry cannot be reached. No model or account is needed:
 * `initialize` is answered before any sign-in.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { CLIENT_CAPABILITIES, CLIENT_INFO } from '../../src-main/acp/clientSide';
import { negotiate, type Negotiated } from '../../src-main/acp/dialects/negotiate';
import { AgentProcess } from '../../src-main/process/agentProcess';
import type { CompatAgent } from './catalog';
import { install, registryUnreachable } from './install';

const V2_AGENTS: CompatAgent[] = [
  {
    id: 'v2-claude-agent-acp',
    name: 'Claude Agent',
    package: '@agentclientprotocol/claude-agent-acp',
    version: '0.101.0',
    bin: 'claude-agent-acp',
    args: [],
    setup: () => ({}),
    quirks: /claude/,
  },
  {
    id: 'v2-codex-acp',
    name: 'Codex',
    package: '@agentclientprotocol/codex-acp',
    version: '2.6.0',
    bin: 'codex-acp',
    args: [],
    setup: () => ({}),
    quirks: /codex/,
  },
];

let unreachable: string | null = null;
test.beforeAll(async () => {
  unreachable = await registryUnreachable();
  if (unreachable) console.log(`protocol v2 agents skipped: ${unreachable}`);
});

async function connect(bin: string, setting: 'auto' | 'v1'): Promise<Negotiated> {
  const home = mkdtempSync(join(tmpdir(), 'acp-v2-home-'));
  return negotiate({
    setting,
    agent: { name: bin },
    start: () => {
      // A throwaway HOME: nothing of this machine's accounts is read. IS_SANDBOX lets Claude start as root.
      const agent = new AgentProcess({ command: bin, args: [], cwd: home, env: { HOME: home, CODEX_HOME: home, IS_SANDBOX: '1' } });
      const { input, output } = agent.webStreams();
      return { input, output, stop: () => agent.stop(1000) };
    },
    client: CLIENT_INFO,
    capabilities: CLIENT_CAPABILITIES,
    timeoutMs: 60_000,
  });
}

for (const agent of V2_AGENTS) {
  test(`${agent.name} (${agent.package}@${agent.version}): version 2 under auto, 1 under v1, one profile`, async () => {
    test.skip(Boolean(unreachable), unreachable ?? '');
    test.setTimeout(12 * 60_000);
    const bin = await install(agent);

    const v2 = await connect(bin, 'auto');
    try {
      expect(v2.version).toBe(2);
      expect(v2.steps).toEqual(['initialize v2']);
      expect(v2.profile.protocolVersion).toBe(2);
      expect(v2.profile.agentInfo?.name).toBe(agent.package);
      expect(v2.profile.agentInfo?.version).toBe(agent.version);
      // v2 names it `methodId`; the profile gives every method the app's `id`.
      expect(v2.profile.authMethods.length).toBeGreaterThan(0);
      for (const method of v2.profile.authMethods) expect(method.id).toEqual(expect.any(String));
      // With `session` advertised, resume (with replay, instead of load), list and close are baseline in v2.
      expect(v2.profile.session).toMatchObject({ load: false, resume: true, resumeReplays: true, list: true, close: true });
      expect(v2.profile.modes).toBe(false);
    } finally {
      v2.connection.close();
      await v2.transport.stop();
    }

    const v1 = await connect(bin, 'v1');
    try {
      expect(v1.version).toBe(1);
      expect(v1.steps).toEqual(['initialize v1']);
      expect(v1.profile.protocolVersion).toBe(1);
      expect(v1.profile.agentInfo?.name).toBe(agent.package);
      // The same methods, whichever version described them.
      expect(v1.profile.authMethods.map((m) => m.id)).toEqual(v2.profile.authMethods.map((m) => m.id));
      expect(v1.profile.prompt).toEqual(v2.profile.prompt);
    } finally {
      v1.connection.close();
      await v1.transport.stop();
    }
  });
}
