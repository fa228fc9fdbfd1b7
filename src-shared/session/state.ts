import type { CheckpointsState, RestoreEntry } from './checkpointEvents';
import type { AuthMethodInfo, ContentBlock, PermissionOption, RawObject, ToolCallFields, ToolContent, ToolLocation } from './events';
import type { AgentCommand, BackgroundWork, ConfigOption, ContextUsage, ElicitationRequest, PermissionSubject, SessionModes, TurnUsage } from './controls';

/** What the tab shows about a session at a glance. */
export type SessionStatus = 'starting' | 'idle' | 'running' | 'waiting' | 'error' | 'exited';

/** Tool-call statuses: ACP's values plus our own, in the protocol's spelling. */
export type ToolCallStatus = 'pending' | 'in_progress' | 'completed' | 'failed' | 'awaiting_permission' | 'canceled' | (string & {});

export interface UserEntry {
  kind: 'user';
  id: string;
  turnId: string;
  content: ContentBlock[];
}
export interface AgentMessageEntry {
  kind: 'agent';
  id: string;
  /** Concatenated text of the streamed chunks. */
  text: string;
  /** Non-text blocks (images, resources, future types) in arrival order. */
  blocks: ContentBlock[];
  messageId?: string;
}
export interface ThoughtEntry {
  kind: 'thought';
  id: string;
  text: string;
}
export interface ToolCallEntry {
  kind: 'tool';
  id: string;
  toolCallId: string;
  title: string;
  /** ACP tool kind (`read`, `edit`, `execute`, …) or an unknown future value, raw. */
  toolKind: string;
  status: ToolCallStatus;
  content: ToolContent[];
  locations: ToolLocation[];
  rawInput?: unknown;
  rawOutput?: unknown;
  /** Set while a permission request for this call waits for the person. */
  permissionRequestId?: string;
  /** True when the call was only seen in a permission request (never announced). */
  synthetic?: boolean;
  /** How its last permission request was answered (`reason: 'remembered'` for an automatic answer). */
  permissionOutcome?: { optionId: string | null; name?: string; kind?: string; reason?: string };
  meta?: unknown;
  // Set only by agents that report them (ACP v2 `tool_call_update`).
  /** Programmatic tool name. */
  name?: string;
  /** Client-initiated controls the call supports now (`cancel`). */
  capabilities?: { cancel: boolean };
}
export interface PlanEntryItem {
  content: string;
  priority: string;
  status: string;
  raw: RawObject;
}
export interface PlanEntry {
  kind: 'plan';
  id: string;
  entries: PlanEntryItem[];
}
export interface StopEntry {
  kind: 'stop';
  id: string;
  stopReason: string;
  error?: string;
  /** Token usage the agent reported for the turn (`PromptResponse.usage`, v2's idle state). */
  usage?: TurnUsage | null;
}
export interface NoticeEntry {
  kind: 'notice';
  id: string;
  level: 'info' | 'warning' | 'error';
  message: string;
  detail?: string[];
  /** Where the rest of `detail` is (an agent's own log file). */
  logFile?: string;
  /** When it was recorded (epoch ms): the protocol inspector shows the messages up to it. */
  ts?: number;
}
export interface FileWrittenEntry {
  kind: 'file';
  id: string;
  path: string;
  oldText: string | null;
  newText: string;
}
/** Anything the app does not understand, kept raw and shown in a labelled box. */
export interface UnknownEntry {
  kind: 'unknown';
  id: string;
  label: string;
  raw: unknown;
}

export type TranscriptEntry =
  | UserEntry
  | AgentMessageEntry
  | ThoughtEntry
  | ToolCallEntry
  | PlanEntry
  | StopEntry
  | NoticeEntry
  | FileWrittenEntry
  | UnknownEntry
  // A marker where files were restored to a checkpoint (issue 24).
  | RestoreEntry;

export interface PendingPermission {
  requestId: string;
  toolCallId: string;
  /** What the request says of the tool call (title, kind, input). */
  tool: ToolCallFields;
  options: PermissionOption[];
  /** About no tool call the agent reports: the card is the request itself. */
  standalone?: boolean;
  // Set only by agents that send them (ACP v2 permission requests).
  /** The prompt's own title and explanation (not the tool call's). */
  title?: string;
  description?: string | null;
  /** What is being approved: a tool call, a command, or a future type (kept raw). */
  subject?: PermissionSubject | null;
}
export interface PendingElicitation {
  requestId: string;
  request: ElicitationRequest;
}
export interface TerminalState {
  terminalId: string;
  command: string;
  args: string[];
  cwd?: string | null;
  output: string;
  exitCode?: number | null;
  signal?: string | null;
  exited: boolean;
  released: boolean;
  interactive?: boolean;
  // Agent-owned terminals (ACP v2 `terminal_update`).
  /** `agent`: the agent runs it and reports it; the app only shows it. */
  owner?: 'agent';
  /** The agent accepts a cancel for it now. */
  cancellable?: boolean;
  /** Bumped when the agent replaces the whole output (the view starts over). */
  outputEpoch?: number;
}
export interface QueuedPrompt {
  queueId: string;
  prompt: ContentBlock[];
}

export interface SessionState {
  sessionId: string;
  agentId: string;
  agentName: string;
  cwd: string;
  /** Extra workspace folders beside `cwd` (from `session.created`; absent in older logs). */
  additionalDirectories?: string[];
  title: string | null;
  /** Set once the person renamed the session: agent titles (`session_info_update`) no longer replace it. */
  titleByPerson?: boolean;
  acpSessionId: string | null;
  status: SessionStatus;
  currentTurnId: string | null;
  entries: TranscriptEntry[];
  /** toolCallId → index in `entries`. */
  toolIndex: Record<string, number>;
  plan: PlanEntryItem[];
  configOptions: ConfigOption[];
  modes: SessionModes | null;
  commands: AgentCommand[];
  usage: ContextUsage | null;
  /** `session_info_update` fields other than the title: last activity and the agent's `_meta`. */
  info?: { updatedAt?: string | null; meta?: unknown } | null;
  permissions: PendingPermission[];
  elicitations: PendingElicitation[];
  terminals: Record<string, TerminalState>;
  files: Record<string, { oldText: string | null; newText: string }>;
  queue: QueuedPrompt[];
  authMethods: AuthMethodInfo[] | null;
  readonlyReason: string | null;
  lastSeq: number;
  lastActivity: number;
  /**
   * Reducer bookkeeping: no tool call below this entry index can still be open, so a turn's
   * end settles only from here (undefined: scan from 0).
   */
  openToolFrom?: number;
  // Set only by agents that report them (ACP v2); absent in v1 sessions.
  /** The ACP protocol version of the connection (`session.connected`). */
  protocolVersion?: number;
  /** Work the agent runs outside the foreground turn, as last reported (undefined: not reported). */
  background?: BackgroundWork[];
  /** Reducer bookkeeping: `${role}:${messageId}` → entry index, for chunks and upserts (reset at each prompt). */
  messageIndex?: Record<string, number>;
  /** Reducer bookkeeping: planId → entry index. */
  planIndex?: Record<string, number>;
  /** Checkpoints of the session's folders and what each turn changed (issue 24; reduceCheckpoints.ts). */
  checkpoints?: CheckpointsState;
}

/** The state before any event. */
export function emptySession(sessionId: string): SessionState {
  return {
    sessionId,
    agentId: '',
    agentName: '',
    cwd: '',
    title: null,
    acpSessionId: null,
    status: 'starting',
    currentTurnId: null,
    entries: [],
    toolIndex: {},
    plan: [],
    configOptions: [],
    modes: null,
    commands: [],
    usage: null,
    permissions: [],
    elicitations: [],
    terminals: {},
    files: {},
    queue: [],
    authMethods: null,
    readonlyReason: null,
    lastSeq: 0,
    lastActivity: 0,
  };
}
