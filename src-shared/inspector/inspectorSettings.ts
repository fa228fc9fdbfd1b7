import type { Json, JsonObject } from '../json';
import { withAgentField, type CustomAgent, type Settings } from '../settings';
import { isSecretName } from './redact';

/**
 * The protocol inspector's settings, kept in `settings.json` beside an agent's other fields
 * (its custom entry, or its `agentOverrides` entry; both schemas keep unknown keys):
 *
 * - `recordTraffic: true`: the agent's traffic is written (redacted) to its wire log file from
 *   its next start on;
 * - `secretEnv: ["NAME", ...]`: environment variables whose values are secret even when their
 *   names do not say so (names like `API_KEY` or `GITHUB_TOKEN` are secret anyway);
 * - on an MCP server, `secret: ["NAME", ...]`: env variables or headers likewise.
 */
type Entry = CustomAgent | Settings['agentOverrides'][string];

function entriesOf(settings: Settings, agentId: string): Entry[] {
  const custom = settings.agents.find((agent) => agent.id === agentId);
  const override = settings.agentOverrides[agentId];
  return [override, custom].filter((entry): entry is Entry => Boolean(entry));
}

/** Whether the agent's next start records its traffic. */
export function recordsTraffic(settings: Settings, agentId: string): boolean {
  const value = entriesOf(settings, agentId).find((entry) => typeof entry.recordTraffic === 'boolean')?.recordTraffic;
  return value === true;
}

/** settings.json (parsed, any shape) with the agent's recording turned on or off; everything else kept. */
export function withTrafficRecording(json: JsonObject, agentId: string, on: boolean): JsonObject {
  return withAgentField(json, agentId, 'recordTraffic', on satisfies Json);
}

function names(value: unknown): Set<string> {
  return new Set(Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : []);
}

/**
 * The values to redact from an agent's traffic: its environment's values that are secret (marked
 * in `secretEnv`, or named like a secret), every stored sign-in value, and the MCP servers' env
 * and header values that are secret (marked in `secret`, or named like one).
 */
export function secretValues(settings: Settings, agentId: string, env: Record<string, string>, signInValues: Record<string, string>): string[] {
  const marked = new Set(entriesOf(settings, agentId).flatMap((entry) => [...names(entry.secretEnv)]));
  const out: string[] = Object.values(signInValues);
  for (const [name, value] of Object.entries(env)) if (marked.has(name) || isSecretName(name)) out.push(value);
  for (const server of settings.mcpServers) {
    const serverMarked = names(server.secret);
    for (const pairs of [server.env, server.headers]) {
      if (typeof pairs !== 'object' || pairs === null) continue;
      for (const [name, value] of Object.entries(pairs)) if (typeof value === 'string' && (serverMarked.has(name) || isSecretName(name))) out.push(value);
    }
  }
  return out;
}
