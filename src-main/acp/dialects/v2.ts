import { TextDecoder } from 'node:util';
import type { SessionEventBody } from '../../../src-shared/session/events';
import { decodeV1Update } from '../decode/v1Update';
import { decodeContentBlocks, decodeToolContent } from '../decode/content';
import { planItems, v2ToolFields } from '../decode/wireFields';
import { decodeBackground, decodeCommands, decodeConfigOptions, decodePermissionSubject, decodeTurnUsage } from '../decode/controls';
import type { Dialect, UpdateDecoder } from './dialect';
import { agentInfoOf, authMethodOf, isObject, otherKeys, present, type AgentProfile } from './profile';
import { optionsOf, pairs, remoteServer } from './v1';

import type { RawObject } from '../../../src-shared/session/raw';

const SESSION_KEYS = ['prompt', 'mcp', 'delete', 'fork', 'additionalDirectories', '_meta'] as const;

/**
 * ACP v2 (the draft in `@agentclientprotocol/sdk/experimental/v2`; where the seed draft and the
 * SDK's `schema/v2` disagree, this follows the SDK, as the real agents do). Updates become the
 * app's events (src-shared/session/agentEvents.ts); where v2 sends what v1 does (chunks, session
 * info, usage) the v1 decoder reads it.
 */
export const v2: Dialect = {
  version: 2,
  methods: {
    initialize: 'initialize',
    login: 'auth/login',
    logout: 'auth/logout',
    newSession: 'session/new',
    loadSession: null,
    resumeSession: 'session/resume',
    listSessions: 'session/list',
    deleteSession: 'session/delete',
    closeSession: 'session/close',
    forkSession: 'session/fork',
    prompt: 'session/prompt',
    cancel: 'session/cancel',
    setConfigOption: 'session/set_config_option',
    setMode: null,
    cancelToolCall: 'tool_call/cancel',
    cancelTerminal: 'terminal/cancel',
  },

  encodeInitialize(client, capabilities) {
    return { protocolVersion: 2, info: client, capabilities };
  },

  /** v2 clients have no `fs` or `terminal` (terminals belong to the agent) and use `{}` markers. */
  clientCapabilities(base) {
    const caps: RawObject = {};
    const auth = isObject(base.auth) ? base.auth : {};
    if (present(auth.terminal)) caps.auth = { terminal: {} };
    if (isObject(base.elicitation)) caps.elicitation = base.elicitation;
    if (isObject(base._meta)) caps._meta = base._meta;
    return caps;
  },

  decodeInitialize(result) {
    const caps = isObject(result.capabilities) ? result.capabilities : {};
    const hasSession = isObject(caps.session);
    const session = isObject(caps.session) ? caps.session : {};
    const prompt = isObject(session.prompt) ? session.prompt : {};
    const mcp = isObject(session.mcp) ? session.mcp : {};
    const auth = isObject(caps.auth) ? caps.auth : {};
    const authMethods = (Array.isArray(result.authMethods) ? result.authMethods : []).filter(isObject).map(authMethodOf);
    const profile: AgentProfile = {
      protocolVersion: typeof result.protocolVersion === 'number' ? result.protocolVersion : 2,
      agentInfo: agentInfoOf(result.info),
      authMethods,
      prompt: { image: present(prompt.image), audio: present(prompt.audio), embeddedContext: present(prompt.embeddedContext) },
      mcp: { stdio: present(mcp.stdio), http: present(mcp.http), sse: false },
      // With `session` present, new/list/resume/close are baseline; resume replays instead of `session/load`.
      session: {
        load: false,
        resume: hasSession,
        resumeReplays: hasSession,
        list: hasSession,
        delete: present(session.delete),
        fork: present(session.fork),
        close: hasSession,
        additionalDirectories: present(session.additionalDirectories),
        other: otherKeys(session, SESSION_KEYS),
      },
      // `auth/logout` is required of every agent that lists auth methods.
      logout: authMethods.length > 0 || present(auth.logout),
      modes: false,
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
      // v2 has no SSE transport.
      if (remote)
        return remote.type === 'http' && profile.mcp.http ? [{ type: 'http', name: remote.name, url: remote.url, headers: pairs(remote.headers) }] : [];
      if (!profile.mcp.stdio) return [];
      const local = server as { name: string; command: string; args: string[]; env: Record<string, string> };
      return [{ type: 'stdio', name: local.name, command: local.command, args: local.args, env: pairs(local.env) }];
    });
  },

  encodeSetConfigOption(acpSessionId, configId, value) {
    return { sessionId: acpSessionId, configId, type: typeof value === 'boolean' ? 'boolean' : 'id', value };
  },

  encodeResume({ acpSessionId, cwd, mcpServers, additionalDirectories, replay }) {
    return {
      sessionId: acpSessionId,
      cwd,
      mcpServers,
      ...(additionalDirectories?.length ? { additionalDirectories } : {}),
      ...(replay ? { replayFrom: { type: 'start' } } : {}),
    };
  },

  decodeSession(result, acpSessionId) {
    const events: SessionEventBody[] = [];
    if (Array.isArray(result.availableCommands)) {
      events.push({ kind: 'commands.updated', commands: decodeCommands(result.availableCommands) });
    }
    return {
      acpSessionId: typeof result.sessionId === 'string' ? result.sessionId : (acpSessionId ?? null),
      configOptions: Array.isArray(result.configOptions) ? decodeConfigOptions(result.configOptions) : null,
      modes: null,
      models: null,
      events,
    };
  },

  decodePromptResult(result) {
    const raw = isObject(result) ? result : {};
    return { kind: 'accepted', messageId: typeof raw.messageId === 'string' ? raw.messageId : null, meta: raw._meta };
  },

  decodePermissionRequest(raw, requestId) {
    const title = typeof raw.title === 'string' ? raw.title : 'The agent asks for permission';
    const description = typeof raw.description === 'string' ? raw.description : null;
    const subject = isObject(raw.subject) ? raw.subject : null;
    const options = optionsOf(raw.options);
    const asked = { title, description, subject: decodePermissionSubject(subject), options };
    // The request's title describes the request, never the subject: the tool call keeps its own.
    if (subject?.type === 'tool_call' && isObject(subject.toolCall)) {
      const { toolCallId, sessionUpdate: _kind, ...fields } = subject.toolCall;
      if (typeof toolCallId === 'string') return { ...asked, toolCallId, tool: v2ToolFields(fields) };
    }
    // A command is attached to its tool call when the agent names one; the command itself is shown from `subject`.
    if (subject?.type === 'command' && typeof subject.toolCallId === 'string') return { ...asked, toolCallId: subject.toolCallId, tool: {} };
    // About no tool call the agent reports (a bare command, an unknown subject): the card is the request.
    const tool = subject?.type === 'command' ? { toolKind: 'execute' } : {};
    return { ...asked, toolCallId: `permission-${requestId}`, tool, standalone: true };
  },

  createDecoder(): UpdateDecoder {
    return new V2Decoder();
  },
};

const NOTICE_LEVELS = new Set(['info', 'warning', 'error']);

class V2Decoder implements UpdateDecoder {
  /** Sessions whose last state was not idle: the next idle ends their turn. */
  private busy = new Set<string>();
  /** Per agent terminal, so a UTF-8 character split across chunks is decoded whole. */
  private text = new Map<string, InstanceType<typeof TextDecoder>>();

  decode(acpSessionId: string, update: RawObject): SessionEventBody[] {
    const kind = typeof update.sessionUpdate === 'string' ? update.sessionUpdate : '';
    switch (kind) {
      case 'available_commands_update':
        return [{ kind: 'commands.updated', commands: decodeCommands(update.availableCommands) }];
      case 'agent_message_chunk':
      case 'agent_thought_chunk':
      case 'user_message_chunk':
      case 'session_info_update':
      case 'usage_update':
        return [decodeV1Update(update)];
      case 'agent_message':
      case 'user_message':
      case 'agent_thought': {
        const role = kind === 'agent_message' ? 'agent' : kind === 'user_message' ? 'user' : 'thought';
        // An omitted `content` leaves the message's content as it was.
        const content = Array.isArray(update.content) ? decodeContentBlocks(update.content) : undefined;
        return [
          {
            kind: 'message.upserted',
            role,
            messageId: String(update.messageId ?? ''),
            ...(content ? { content } : {}),
            ...('_meta' in update ? { meta: update._meta } : {}),
          },
        ];
      }
      case 'tool_call_update': {
        const { sessionUpdate: _kind, toolCallId, ...fields } = update;
        return [{ kind: 'tool.updated', toolCallId: String(toolCallId ?? ''), fields: v2ToolFields(fields), metaPatch: true }];
      }
      case 'tool_call_content_chunk':
        if (!isObject(update.content)) break;
        return [{ kind: 'tool.contentAppended', toolCallId: String(update.toolCallId ?? ''), content: decodeToolContent(update.content) }];
      case 'config_option_update':
        return [{ kind: 'config.options', configOptions: decodeConfigOptions(update.configOptions) }];
      case 'plan_update': {
        const plan = isObject(update.plan) ? update.plan : {};
        if (plan.type !== 'items' || !Array.isArray(plan.entries)) return [{ kind: 'update.unknown', label: `plan ${String(plan.type)}`, raw: plan }];
        return [{ kind: 'plan.replaced', planId: String(plan.planId ?? ''), entries: planItems(plan.entries) }];
      }
      case 'state_update':
        return [this.state(acpSessionId, update)];
      case 'terminal_update':
        return [this.terminal(update)];
      case 'terminal_output_chunk': {
        const terminalId = String(update.terminalId ?? '');
        return [{ kind: 'terminal.output', terminalId, data: this.decodeBytes(terminalId, update.data, true) }];
      }
      case 'notice': {
        const severity = typeof update.severity === 'string' && NOTICE_LEVELS.has(update.severity) ? (update.severity as 'info' | 'warning' | 'error') : 'info';
        const title = typeof update.title === 'string' ? update.title : 'Notice';
        const message = typeof update.description === 'string' && update.description ? `${title}: ${update.description}` : title;
        return [{ kind: 'notice', level: severity, message }];
      }
    }
    // Unknown kinds stay raw: shown generically, kept in the log.
    return [{ kind: 'update.unknown', label: `update ${kind || '(no kind)'}`, raw: update }];
  }

  private state(acpSessionId: string, update: RawObject): SessionEventBody {
    const state = typeof update.state === 'string' ? update.state : 'unknown';
    let turnEnded = false;
    if (state === 'idle') {
      turnEnded = this.busy.delete(acpSessionId);
    } else {
      // running, requires_action, and unknown states: busy, never idle.
      this.busy.add(acpSessionId);
    }
    const error = isObject(update.error) ? (update.error as { code?: number; message?: string; data?: unknown }) : null;
    return {
      kind: 'session.state',
      state,
      turnEnded,
      ...(state === 'idle' ? { stopReason: typeof update.stopReason === 'string' ? update.stopReason : null, error } : {}),
      background: decodeBackground(update.background),
      usage: decodeTurnUsage(update.usage),
      raw: update,
    };
  }

  private terminal(update: RawObject): SessionEventBody {
    const terminalId = String(update.terminalId ?? '');
    const event: Extract<SessionEventBody, { kind: 'agentTerminal.updated' }> = { kind: 'agentTerminal.updated', terminalId, raw: update };
    if ('command' in update) event.command = typeof update.command === 'string' ? update.command : null;
    if ('cwd' in update) event.cwd = typeof update.cwd === 'string' ? update.cwd : null;
    if ('output' in update) {
      this.text.delete(terminalId);
      event.output = isObject(update.output) ? this.decodeBytes(terminalId, update.output.data, false) : null;
    }
    if ('exitStatus' in update) {
      const exit = isObject(update.exitStatus) ? update.exitStatus : null;
      event.exitStatus = exit
        ? { exitCode: typeof exit.exitCode === 'number' ? exit.exitCode : null, signal: typeof exit.signal === 'string' ? exit.signal : null }
        : null;
    }
    if ('capabilities' in update) event.cancellable = isObject(update.capabilities) && present(update.capabilities.cancel);
    return event;
  }

  private decodeBytes(terminalId: string, data: unknown, stream: boolean): string {
    if (typeof data !== 'string') return '';
    let decoder = this.text.get(terminalId);
    if (!decoder) this.text.set(terminalId, (decoder = new TextDecoder('utf-8')));
    return decoder.decode(Buffer.from(data, 'base64'), { stream });
  }
}
