import { FIXTURE_AGENT, makeCore, type HarnessOptions } from './coreHarness';
import { startAgentServer, type AgentServer } from '../server/agentServer';
import type { ProtocolSetting } from '../../src-shared/settings';

/** The fixture agent behind the bridge (`acp-desktop agent-server`), on loopback, with a known token. */
export async function startBridge(args: string[] = [], options: { token?: string; pids?: number[] } = {}): Promise<AgentServer> {
  return startAgentServer({
    agent: { command: process.execPath, args: [FIXTURE_AGENT, '--delay', '0', ...args], env: {} },
    token: options.token ?? 'bridge-token-for-tests-0123456789',
    events: { started: (pid) => pid !== undefined && options.pids?.push(pid) },
  });
}

/** A remote agent entry for settings.json. */
export function remoteAgent(url: string, extra: Record<string, unknown> = {}) {
  return { id: 'remote', name: 'Remote Fixture', url, headers: { Authorization: 'Bearer bridge-token-for-tests-0123456789' }, ...extra };
}

/** A core whose only agent is remote (`url`), under `protocol`. */
export function makeRemoteCore(agent: Record<string, unknown>, protocol: ProtocolSetting, options: HarnessOptions = {}) {
  return makeCore([], { agents: [agent], agentOverrides: { [String(agent.id)]: { protocol } } }, { ...options, protocol });
}
