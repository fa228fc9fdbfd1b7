import type { AuthMethodInfo } from '../../../src-shared/session/events';

import { decodeAuthMethod } from '../decode/controls';

import { isObject } from '../../../src-shared/acp/read';
import type { RawObject } from '../../../src-shared/session/raw';

/**
 * What an agent said about itself at `initialize`, in one shape whatever the protocol
 * version: every other module reads this, never the wire answer.
 */
export interface AgentProfile {
  protocolVersion: number;
  agentInfo: { name: string; title?: string | null; version?: string | null; raw: RawObject } | null;
  /** Unknown types kept (`raw`); `type` defaults to `agent`. */
  authMethods: AuthMethodInfo[];
  /** Content beyond the baseline text and resource links. */
  prompt: { image: boolean; audio: boolean; embeddedContext: boolean };
  /** MCP transports accepted in `mcpServers` (stdio is always accepted). */
  mcp: { stdio: boolean; http: boolean; sse: boolean };
  /** Session methods and options beyond `session/new` and `session/prompt`. */
  session: {
    load: boolean;
    resume: boolean;
    /** `session/resume` can replay the transcript (`replayFrom: { type: "start" }`), which v2 uses instead of `session/load`. */
    resumeReplays: boolean;
    list: boolean;
    delete: boolean;
    fork: boolean;
    close: boolean;
    additionalDirectories: boolean;
    /** Every other session capability the agent advertised, raw (`_x`, future ones). */
    other: RawObject;
  };
  /** `auth/logout` (v2) or `logout` (v1) may be sent. */
  logout: boolean;
  /** Legacy session modes (`session/set_mode`): v1 only. */
  modes: boolean;
  meta: unknown;
  /** The answer as it came. */
  raw: RawObject;
}

// The one object test (src-shared/acp/read.ts), offered here to the files of the wire edge.
export { isObject };

/** A capability marker: `{}` or `true` is present; absent, `null` and `false` are not. */
export function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== false;
}

export function agentInfoOf(value: unknown): AgentProfile['agentInfo'] {
  if (!isObject(value)) return null;
  return {
    name: typeof value.name === 'string' ? value.name : 'unknown',
    title: typeof value.title === 'string' ? value.title : null,
    version: typeof value.version === 'string' ? value.version : null,
    raw: value,
  };
}

/** v1 names the method `id`, v2 `methodId`; the app uses `id`. */
export const authMethodOf = (raw: RawObject): AuthMethodInfo => decodeAuthMethod(raw);

/** v2 lists a terminal method's environment as `[{ name, value }]` pairs; v1 (and the app) as an object. */
function v1Env(env: unknown): { env?: Record<string, string> } {
  if (!Array.isArray(env)) return {};
  const pairs = env.filter((pair): pair is { name: string; value: string } => typeof pair?.name === 'string' && typeof pair?.value === 'string');
  return { env: Object.fromEntries(pairs.map((pair) => [pair.name, pair.value])) };
}

/** Capability keys a profile names; the rest of a session capability object goes to `session.other`. */
export function otherKeys(source: RawObject, known: readonly string[]): RawObject {
  return Object.fromEntries(Object.entries(source).filter(([key, value]) => !known.includes(key) && present(value)));
}

/**
 * The profile in the v1 `initialize` answer's shape: what the session layer, the agent list and
 * the renderer read (capabilities, agent info, auth methods), whatever version the agent speaks.
 * v2's `session/resume` with a replay stands for v1's `loadSession`.
 */
export function asV1Initialize(profile: AgentProfile): RawObject {
  const s = profile.session;
  const sessionCapabilities: RawObject = {
    ...profile.session.other,
    ...(s.resume ? { resume: {} } : {}),
    ...(s.list ? { list: {} } : {}),
    ...(s.delete ? { delete: {} } : {}),
    ...(s.fork ? { fork: {} } : {}),
    ...(s.close ? { close: {} } : {}),
    ...(s.additionalDirectories ? { additionalDirectories: {} } : {}),
  };
  return {
    protocolVersion: profile.protocolVersion,
    ...(profile.agentInfo ? { agentInfo: profile.agentInfo.raw } : {}),
    authMethods: profile.authMethods.map((method) => {
      const raw = isObject(method.raw) ? method.raw : {};
      return { ...raw, id: method.id, ...v1Env(raw.env) };
    }),
    agentCapabilities: {
      loadSession: s.load || s.resumeReplays,
      promptCapabilities: { ...profile.prompt },
      mcpCapabilities: { http: profile.mcp.http, sse: profile.mcp.sse },
      sessionCapabilities,
      ...(profile.logout ? { auth: { logout: {} } } : {}),
    },
    ...(profile.meta !== undefined ? { _meta: profile.meta } : {}),
  };
}
