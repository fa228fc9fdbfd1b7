import type { ContentBlock, ToolContent, ToolLocation } from './content';
import type { RawObject as Raw } from './raw';
import type { AgentCommand, BackgroundWork, ConfigOption, ContextUsage, TurnUsage } from './controls';

/**
 * What an agent told the app about a session, in the app's own terms: every ACP version's
 * `session/update` (and permission request) is decoded into these at the edge
 * (`src-main/acp/dialects/`), so nothing past the dialects reads wire JSON and one fold
 * (`reducer.ts`) serves every version, live and replayed. Content blocks, tool content and
 * locations are typed (`content.ts`); controls (commands, config options, usage…) are typed
 * (`controls.ts`); anything not understood keeps its raw value in a `raw` field.
 */

export type MessageRole = 'agent' | 'user' | 'thought';

/**
 * A tool call's fields as one update set them. Absent: unchanged. `null`: back to the default
 * (title empty, kind `other`, status `pending`, no content, locations, input, output, name,
 * capabilities, `_meta`). A value: replaces (`meta` patches by key when `metaPatch` is set).
 */
export interface ToolCallFields {
  title?: string | null;
  /** ACP tool kind (`read`, `edit`, `execute`…) or a future value as sent. */
  toolKind?: string | null;
  /** ACP status, the app's spelling (`canceled`), or a future value as sent. */
  status?: string | null;
  content?: ToolContent[] | null;
  locations?: ToolLocation[] | null;
  rawInput?: unknown;
  rawOutput?: unknown;
  /** Programmatic tool name. */
  name?: string | null;
  /** Client-initiated controls the call supports now (v2 `capabilities.cancel`). */
  capabilities?: { cancel: boolean } | null;
  /** The call's `_meta`. */
  meta?: unknown;
}

export interface PlanItem {
  content: string;
  /** `high` | `medium` | `low`, or a future value as sent. */
  priority: string;
  /** `pending` | `in_progress` | `completed` | `cancelled`, or a future value as sent. */
  status: string;
  raw: Raw;
}

export type AgentEventBody =
  /** A piece of a message, appended to the message with that id (or the last one, without an id). */
  | { kind: 'message.chunk'; role: MessageRole; messageId?: string; content: ContentBlock; meta?: unknown }
  /**
   * A whole message: its content replaces what the message with that id had. Without `content`
   * (an update of `_meta` only) the message's content stays.
   */
  | { kind: 'message.upserted'; role: MessageRole; messageId: string; content?: ContentBlock[]; meta?: unknown }
  /** A tool call created or updated (see `ToolCallFields`); `metaPatch`: `_meta` patches by key instead of replacing. */
  | { kind: 'tool.updated'; toolCallId: string; fields: ToolCallFields; metaPatch?: boolean }
  /** One content item appended to a tool call. */
  | { kind: 'tool.contentAppended'; toolCallId: string; content: ToolContent }
  /**
   * A plan replaced whole. With a `planId`, the plan of that id; without (ACP v1, one plan per
   * session), the turn's plan.
   */
  | { kind: 'plan.replaced'; planId?: string; entries: PlanItem[] }
  /** The agent's slash commands, replaced whole. */
  | { kind: 'commands.updated'; commands: AgentCommand[] }
  /** The session's config options, replaced whole (the agent's update, or its answer to a change). */
  | { kind: 'config.options'; configOptions: ConfigOption[] }
  /** The agent switched its mode (the app's own switch is `mode.changed` without `byAgent`). */
  | { kind: 'mode.changed'; modeId: string; byAgent?: boolean }
  /** Session metadata: fields present changed (`null` clears). */
  | { kind: 'session.info'; title?: string | null; updatedAt?: string | null; meta?: unknown }
  /** The context window and cost as last reported. */
  | ({ kind: 'usage.updated' } & ContextUsage)
  /**
   * A terminal the agent runs itself: fields present changed (patch semantics as for tool calls);
   * `output` replaces all output shown (chunks travel as `terminal.output`).
   */
  | {
      kind: 'agentTerminal.updated';
      terminalId: string;
      command?: string | null;
      cwd?: string | null;
      output?: string | null;
      exitStatus?: { exitCode?: number | null; signal?: string | null } | null;
      cancellable?: boolean;
      raw: Raw;
    }
  /**
   * The agent's session state. `turnEnded` is set by the dialect on the first `idle` after
   * `running` (repeated idle snapshots are not new completions). An unknown `state` counts as
   * busy, never idle.
   */
  | {
      kind: 'session.state';
      state: 'running' | 'requires_action' | 'idle' | (string & {});
      turnEnded: boolean;
      stopReason?: string | null;
      /** The error of an `error` stop (code `-32000`: sign-in needed). */
      error?: { code?: number; message?: string; data?: unknown } | null;
      /** Work running outside the foreground turn, as reported (null: not reported). */
      background?: BackgroundWork[] | null;
      /** Token usage reported with the turn's end. */
      usage?: TurnUsage | null;
      /** The snapshot as sent (an unknown state is shown with it). */
      raw: unknown;
    }
  /** Something this version cannot read (a future or `_` update kind, a plan of an unknown type): shown generically, kept. */
  | { kind: 'update.unknown'; label: string; raw: Raw };
