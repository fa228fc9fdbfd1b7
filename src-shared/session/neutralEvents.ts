import type { ContentBlock, RawObject } from './events';

/**
 * Event kinds that ACP v1's `session/update` cannot express, written by the v2 dialect
 * (`src-main/acp/dialects/v2.ts`) and folded by `reduceNeutral.ts`. They are version-neutral:
 * nothing here names a protocol version, and a v1 log never contains them (old logs open
 * unchanged). Where v2 means the same as v1 (message chunks, commands, usage, session info)
 * the v2 dialect writes the v1-shaped `acp.update` instead, so one reducer path serves both.
 */
export type NeutralEventBody =
  /** A whole message (`agent_message`, `user_message`, `agent_thought`): its content replaces the message with that id. */
  | { kind: 'message.upserted'; role: 'agent' | 'user' | 'thought'; messageId: string; content: ContentBlock[] }
  /**
   * A tool call created or patched: fields absent from `patch` stay, `null` resets a field to
   * its default (title empty, kind `other`, status `pending`, no content, locations,
   * capabilities), values replace. `_meta` patches by top-level key.
   */
  | { kind: 'tool.patched'; toolCallId: string; patch: RawObject }
  /** One content item appended to a tool call (`tool_call_content_chunk`). */
  | { kind: 'tool.contentAppended'; toolCallId: string; content: RawObject }
  /** A plan replaced by id (`plan_update`); `plan` is `{ type: "items", entries }` or an unknown type kept raw. */
  | { kind: 'plan.updated'; planId: string; plan: RawObject }
  /**
   * A terminal the agent runs itself (`terminal_update`): patch semantics as for tool calls;
   * `cancellable` is whether the agent accepts a cancel now.
   */
  | {
      kind: 'agentTerminal.updated';
      terminalId: string;
      command?: string | null;
      cwd?: string | null;
      /** Full output replacing what was shown (already decoded to text). */
      output?: string | null;
      exitStatus?: { exitCode?: number | null; signal?: string | null } | null;
      cancellable?: boolean;
      raw: RawObject;
      /* Output chunks (`terminal_output_chunk`) travel as the existing `terminal.output` event. */
    }
  /**
   * The agent's session state snapshot. `turnEnded` is set by the dialect on the first `idle`
   * after `running` (repeated idle snapshots leave it false: not a new completion). An unknown
   * `state` counts as busy, never idle.
   */
  | {
      kind: 'session.state';
      state: 'running' | 'requires_action' | 'idle' | (string & {});
      turnEnded: boolean;
      stopReason?: string | null;
      /** The JSON-RPC error of an `error` stop (code `-32000`: sign-in needed). */
      error?: { code?: number; message?: string; data?: unknown } | null;
      /** Work running independently of the foreground turn, as reported (null: not reported). */
      background?: RawObject[] | null;
      raw: RawObject;
    };

export type NeutralEventKind = NeutralEventBody['kind'];

export const NEUTRAL_EVENT_KINDS: readonly NeutralEventKind[] = [
  'message.upserted',
  'tool.patched',
  'tool.contentAppended',
  'plan.updated',
  'agentTerminal.updated',
  'session.state',
];
