import type { AgentEventBody, ToolCallFields } from './agentEvents';
import type { CheckpointEventBody } from './checkpointEvents';
import type { ContentBlock } from './content';
import type {
  AgentCapabilities,
  AgentInfo,
  AuthMethodInfo,
  ConfigOption,
  ElicitationContent,
  ElicitationRequest,
  PermissionSubject,
  SessionModels,
  SessionModes,
  TurnUsage,
  WireError,
} from './controls';

/**
 * The events of one chat session. A session's state is `fold(reduceSession, events)`;
 * the same events are appended to its log on disk and streamed to the renderer.
 *
 * Every event is the app's own: what agents send is decoded into `AgentEventBody`
 * (agentEvents.ts) by the dialect of the protocol version in use; logs written before that are
 * converted when read (`legacyEvents.ts`). To add an event kind, see docs/ARCHITECTURE.md.
 */

// The raw payload types live in raw.ts, which agentEvents.ts imports too (no import cycle).
export type { Json, RawObject } from './raw';
export type { ContentBlock, ToolContent, ToolLocation } from './content';
export type { AgentEventBody, MessageRole, PlanItem, ToolCallFields } from './agentEvents';
export type { AuthMethodInfo } from './controls';

export interface PermissionOption {
  optionId: string;
  name: string;
  /** `allow_once` | `allow_always` | `reject_once` | `reject_always` | a future kind. */
  kind: string;
  _meta?: unknown;
}

/** The fields every event carries. */
export interface EventBase {
  /** The app's session id (stable across agent restarts, `session/load` and `session/resume`). */
  sessionId: string;
  /** Counts up from 1 per session; a gap means an event was missed. */
  seq: number;
  /** Milliseconds since the epoch when main recorded it. */
  ts: number;
}

export type SessionEventBody =
  /** The session was created (first event of every log). */
  | {
      kind: 'session.created';
      agentId: string;
      agentName: string;
      cwd: string;
      /** Extra workspace folders (ACP `additionalDirectories`), kept for reconnects, forks and file access. */
      additionalDirectories?: string[];
      title?: string;
      /** Set when the session starts bound to an agent's session (opened from the agent's list, forked). */
      acpSessionId?: string;
      /** The app session this one was forked from. */
      forkedFrom?: string;
      /** The read-only session this one continues ("Start a new session from here"). */
      continuedFrom?: string;
    }
  /** The agent process answered `session/new`, `session/load` or `session/resume`. */
  | {
      kind: 'session.connected';
      acpSessionId: string;
      how: 'new' | 'load' | 'resume';
      configOptions?: ConfigOption[] | null;
      modes?: SessionModes | null;
      models?: SessionModels | null;
      capabilities?: AgentCapabilities | null;
      agentInfo?: AgentInfo | null;
      /** The ACP protocol version negotiated for the connection (absent in older logs: 1). */
      protocolVersion?: number;
    }
  /** The person sent a prompt (optimistic: the agent's echo of it is ignored). */
  | { kind: 'turn.started'; turnId: string; prompt: ContentBlock[] }
  | { kind: 'turn.ended'; turnId: string; stopReason: string; error?: string; usage?: TurnUsage | null }
  /** A prompt queued while a turn runs; sent when the turn ends. */
  | { kind: 'prompt.queued'; queueId: string; prompt: ContentBlock[] }
  | { kind: 'prompt.dequeued'; queueId: string }
  | {
      kind: 'permission.requested';
      requestId: string;
      /** The tool call asked about (`permission-<requestId>` when the request names none). */
      toolCallId: string;
      /** What the request says of that tool call (never the request's own title). */
      tool: ToolCallFields;
      options: PermissionOption[];
      /** The prompt's title, explanation and subject, when the agent sends them (ACP v2). */
      title?: string;
      description?: string | null;
      /** What is being approved: a tool call, a command, or a future type (kept raw). */
      subject?: PermissionSubject | null;
      /** The request is about no tool call the agent reports (a bare command, an unknown subject): its card is the request. */
      standalone?: boolean;
    }
  | {
      kind: 'permission.resolved';
      requestId: string;
      /** The option chosen, or null when the request was cancelled. */
      optionId: string | null;
      reason?: string;
    }
  | { kind: 'elicitation.requested'; requestId: string; request: ElicitationRequest }
  | {
      kind: 'elicitation.resolved';
      requestId: string;
      action: 'accept' | 'decline' | 'cancel';
      content?: ElicitationContent;
    }
  | { kind: 'elicitation.completed'; elicitationId: string }
  | {
      kind: 'terminal.created';
      terminalId: string;
      command: string;
      args: string[];
      cwd?: string | null;
      /** True for the interactive sign-in terminal. */
      interactive?: boolean;
    }
  | { kind: 'terminal.output'; terminalId: string; data: string }
  | { kind: 'terminal.exited'; terminalId: string; exitCode: number | null; signal: string | null }
  | { kind: 'terminal.released'; terminalId: string }
  /** The client wrote a file for the agent (`fs/write_text_file`); the diff the UI shows. */
  | { kind: 'file.written'; path: string; oldText: string | null; newText: string }
  /** A title set by the app; `byPerson` (a rename) keeps later agent titles from replacing it. */
  | { kind: 'title.changed'; title: string; byPerson?: boolean }
  /**
   * The session is bound to an ACP session id that the next connect resumes or loads
   * (a fork made with `session/fork`; a copied transcript's own id no longer applies).
   */
  | { kind: 'session.bound'; acpSessionId: string; origin: 'fork' | 'agent-list' | (string & {}) }
  /**
   * A request from the agent that could not be served as asked: refused by the SDK's schema
   * check, or a value this app cannot act on (an unknown elicitation mode). Kept raw, shown
   * generically; `error` is what the agent was answered.
   */
  | { kind: 'acp.rejected'; method: string; params: unknown; error: WireError; note?: string }
  | { kind: 'auth.required'; methods: AuthMethodInfo[]; message?: string }
  | { kind: 'auth.completed'; methodId: string }
  /** `stderrTail`: a bounded excerpt (40 lines, 4 KB); `stderrLog`: the agent's own log file, which has the rest. */
  | { kind: 'agent.exited'; code: number | null; signal: string | null; stderrTail: string[]; stderrLog?: string }
  | { kind: 'notice'; level: 'info' | 'warning' | 'error'; message: string }
  /** Marks that the session is shown read-only until the person starts a new one from it. */
  | { kind: 'session.readonly'; reason: string }
  /** What the agent reported, decoded by the dialect (agentEvents.ts). */
  | AgentEventBody
  // ---- checkpoints (issue 24): snapshots, what a turn changed, restores, review decisions
  | CheckpointEventBody
  // ---- end of checkpoints
  /** An event kind this version does not know (read from a newer log): kept and shown raw. */
  | { kind: `_${string}`; [key: string]: unknown };

export type SessionEvent = EventBase & SessionEventBody;
export type SessionEventKind = SessionEventBody['kind'];
