import type { McpServerSetting } from '../../../src-shared/settings';
import type { PermissionOption, SessionEventBody, ToolCallFields } from '../../../src-shared/session/events';
import type { ConfigOption, PermissionSubject, SessionModels, SessionModes, TurnUsage } from '../../../src-shared/session/controls';
import type { AgentProfile } from './profile';

import type { RawObject } from '../../../src-shared/session/raw';

/** The methods whose names differ between versions; `null`: the version has no such method. */
export interface DialectMethods {
  initialize: 'initialize';
  login: string;
  logout: string;
  newSession: 'session/new';
  loadSession: string | null;
  resumeSession: 'session/resume';
  listSessions: 'session/list';
  deleteSession: 'session/delete';
  closeSession: 'session/close';
  forkSession: string | null;
  prompt: 'session/prompt';
  cancel: 'session/cancel';
  setConfigOption: 'session/set_config_option';
  setMode: string | null;
  cancelToolCall: string | null;
  cancelTerminal: string | null;
}

export interface ClientIdentity {
  name: string;
  title?: string;
  version: string;
}

/** What a `session/prompt` answer means: v1 ends the turn there, v2 only accepts the message. */
export type PromptOutcome =
  { kind: 'ended'; stopReason: string; usage: TurnUsage | null; meta?: unknown } | { kind: 'accepted'; messageId: string | null; meta?: unknown };

/** A permission request as the session layer records it (`permission.requested`), options decoded once. */
export interface DecodedPermission {
  toolCallId: string;
  tool: ToolCallFields;
  options: PermissionOption[];
  title?: string;
  description?: string | null;
  subject?: PermissionSubject | null;
  standalone?: boolean;
}

/** What `session/new` / `session/resume` / `session/load` answered, in the app's shape. */
export interface DecodedSession {
  acpSessionId: string | null;
  configOptions: ConfigOption[] | null;
  modes: SessionModes | null;
  models: SessionModels | null;
  /** Events to record right after `session.connected` (v2: the inline slash commands). */
  events: SessionEventBody[];
}

/**
 * Decodes one connection's `session/update` notifications into the app's events. It keeps
 * what a version needs across updates (v2: whether a session was busy, for turn ends; the
 * UTF-8 state of each agent terminal's byte stream), so make one per connection.
 */
export interface UpdateDecoder {
  decode(acpSessionId: string, update: RawObject): SessionEventBody[];
}

/**
 * One ACP protocol version at the edge of the app: method names, encoders for what we send,
 * decoders for what we read. Nothing outside `src-main/acp/` needs to know which is in use.
 */
export interface Dialect {
  version: 1 | 2;
  methods: DialectMethods;
  encodeInitialize(client: ClientIdentity, capabilities: RawObject): RawObject;
  decodeInitialize(result: RawObject): AgentProfile;
  /** Capabilities this client declares in this version (v2 has no fs or terminal). */
  clientCapabilities(base: RawObject): RawObject;
  encodeLogin(methodId: string): RawObject;
  /** The MCP servers this agent can take, in this version's shape (unsupported transports left out). */
  encodeMcpServers(servers: readonly McpServerSetting[], profile: AgentProfile): RawObject[];
  encodeSetConfigOption(acpSessionId: string, configId: string, value: string | boolean): RawObject;
  /** `session/resume` params; `replay` asks for the transcript (v2's replacement for `session/load`). */
  encodeResume(params: { acpSessionId: string; cwd: string; mcpServers: RawObject[]; additionalDirectories?: string[]; replay: boolean }): RawObject;
  decodeSession(result: RawObject, acpSessionId?: string): DecodedSession;
  decodePromptResult(result: unknown): PromptOutcome;
  decodePermissionRequest(raw: RawObject, requestId: string): DecodedPermission;
  createDecoder(): UpdateDecoder;
}
