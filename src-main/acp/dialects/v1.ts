import type { McpServerSetting } from '../../../src-shared/settings';
import type { PermissionOption } from '../../../src-shared/session/events';
import { decodeV1Update } from '../decode/v1Update';
import { v1ToolFields } from '../decode/wireFields';
import { decodeConfigOptions, decodeModels, decodeModes, decodeTurnUsage } from '../decode/controls';
import type { Dialect, DecodedSession } from './dialect';
import { agentInfoOf, authMethodOf, isObject, otherKeys, present, type AgentProfile } from './profile';

import type { RawObject } from '../../../src-shared/session/raw';

const SESSION_KEYS = ['resume', 'list', 'delete', 'fork', 'close', 'additionalDirectories', '_meta'] as const;

/**
 * ACP v1: what the app has always spoken. Each update becomes one of the app's events
 * (`decodeV1Update`, which also converts logs that stored v1 updates as they came).
 */
export const v1: Dialect = {
  version: 1,
  methods: {
    initialize: 'initialize',
    login: 'authenticate',
    logout: 'logout',
    newSession: 'session/new',
    loadSession: 'session/load',
    resumeSession: 'session/resume',
    listSessions: 'session/list',
    deleteSession: 'session/delete',
    closeSession: 'session/close',
    forkSession: 'session/fork',
    prompt: 'session/prompt',
    cancel: 'session/cancel',
    setConfigOption: 'session/set_config_option',
    setMode: 'session/set_mode',
    cancelToolCall: null,
    cancelTerminal: null,
  },

  encodeInitialize(client, capabilities) {
    return { protocolVersion: 1, clientInfo: client, clientCapabilities: capabilities };
  },

  clientCapabilities(base) {
    return base;
  },

  decodeInitialize(result) {
    const caps = isObject(result.agentCapabilities) ? result.agentCapabilities : {};
    const prompt = isObject(caps.promptCapabilities) ? caps.promptCapabilities : {};
    const mcp = isObject(caps.mcpCapabilities) ? caps.mcpCapabilities : {};
    const session = isObject(caps.sessionCapabilities) ? caps.sessionCapabilities : {};
    const auth = isObject(caps.auth) ? caps.auth : {};
    const profile: AgentProfile = {
      protocolVersion: typeof result.protocolVersion === 'number' ? result.protocolVersion : 1,
      agentInfo: agentInfoOf(result.agentInfo),
      authMethods: (Array.isArray(result.authMethods) ? result.authMethods : []).filter(isObject).map(authMethodOf),
      prompt: { image: prompt.image === true, audio: prompt.audio === true, embeddedContext: prompt.embeddedContext === true },
      mcp: { stdio: true, http: mcp.http === true, sse: mcp.sse === true },
      session: {
        load: caps.loadSession === true,
        resume: present(session.resume),
        resumeReplays: false,
        list: present(session.list),
        delete: present(session.delete),
        fork: present(session.fork),
        close: present(session.close),
        additionalDirectories: present(session.additionalDirectories),
        other: otherKeys(session, SESSION_KEYS),
      },
      logout: present(auth.logout),
      modes: true,
      meta: result._meta,
      raw: result,
    };
    return profile;
  },

  encodeLogin(methodId) {
    return { methodId };
  },

  encodeMcpServers(servers, profile) {
    return servers.flatMap((server): RawObject[] => {
      const remote = remoteServer(server);
      if (remote) return profile.mcp[remote.type] ? [{ type: remote.type, name: remote.name, url: remote.url, headers: pairs(remote.headers) }] : [];
      const local = server as { name: string; command: string; args: string[]; env: Record<string, string> };
      return [{ name: local.name, command: local.command, args: local.args, env: pairs(local.env) }];
    });
  },

  encodeSetConfigOption(acpSessionId, configId, value) {
    // Boolean options carry the `type` discriminator (rfds-boolean-config-option); selects a plain value.
    return typeof value === 'boolean' ? { sessionId: acpSessionId, configId, type: 'boolean', value } : { sessionId: acpSessionId, configId, value };
  },

  encodeResume({ acpSessionId, cwd, mcpServers, additionalDirectories }) {
    return { sessionId: acpSessionId, cwd, mcpServers, ...(additionalDirectories?.length ? { additionalDirectories } : {}) };
  },

  decodeSession(result, acpSessionId) {
    const decoded: DecodedSession = {
      acpSessionId: typeof result.sessionId === 'string' ? result.sessionId : (acpSessionId ?? null),
      configOptions: Array.isArray(result.configOptions) ? decodeConfigOptions(result.configOptions) : null,
      modes: decodeModes(result.modes),
      models: decodeModels(result.models),
      events: [],
    };
    return decoded;
  },

  decodePromptResult(result) {
    const raw = isObject(result) ? result : {};
    return {
      kind: 'ended',
      // A future stop reason is kept as sent: a finished turn never turns into an error.
      stopReason: typeof raw.stopReason === 'string' ? raw.stopReason : String(raw.stopReason ?? 'end_turn'),
      usage: decodeTurnUsage(raw.usage),
      meta: raw._meta,
    };
  },

  decodePermissionRequest(raw, requestId) {
    const toolCall = isObject(raw.toolCall) ? raw.toolCall : {};
    const toolCallId = typeof toolCall.toolCallId === 'string' ? toolCall.toolCallId : `permission-${requestId}`;
    return { toolCallId, tool: v1ToolFields(toolCall), options: optionsOf(raw.options) };
  },

  createDecoder() {
    return { decode: (_sessionId, update) => [decodeV1Update(update)] };
  },
};

/** Permission options, decoded once for both versions (a missing kind reads as `allow_once`). */
export function optionsOf(value: unknown): PermissionOption[] {
  return (Array.isArray(value) ? value : []).filter(isObject).map((option) => ({
    optionId: String(option.optionId ?? ''),
    name: String(option.name ?? option.optionId ?? ''),
    kind: String(option.kind ?? 'allow_once'),
    ...(option._meta !== undefined ? { _meta: option._meta } : {}),
  }));
}

export function remoteServer(server: McpServerSetting): { type: 'http' | 'sse'; name: string; url: string; headers: Record<string, string> } | null {
  if ('url' in server && typeof server.url === 'string') return server as { type: 'http' | 'sse'; name: string; url: string; headers: Record<string, string> };
  return null;
}

export function pairs(record: Record<string, string> | undefined): { name: string; value: string }[] {
  return Object.entries(record ?? {}).map(([name, value]) => ({ name, value }));
}
