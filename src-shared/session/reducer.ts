// Over 400 lines on purpose: the fold is one switch over every event kind, and keeping it in one
// place is what makes "state = fold(events)" checkable by reading; the v2-only kinds live in reduceNeutral.ts.
import { isKnown, KNOWN_UPDATE_KINDS } from '../acp/known';
import { usageView } from '../acp/usage';
import type { ContentBlock, RawObject, SessionEvent } from './events';
import { applyNeutralEvent, isNeutralEvent, type NeutralHelpers } from './reduceNeutral';
import { emptySession, type PlanEntryItem, type SessionState, type ToolCallEntry, type TranscriptEntry } from './state';

/**
 * Applies a batch of events to a session's state and returns the new state.
 *
 * Pure from the caller's side: the input state is never mutated. Inside, the entry list
 * is copied once per batch (not once per event) so that ten thousand streamed chunks
 * cost one array copy, and only the entries an event touches get new objects, so a
 * React row that selects its own entry re-renders only when that entry changed.
 */
export function reduceSession(state: SessionState | undefined, events: readonly SessionEvent[]): SessionState {
  if (events.length === 0 && state) return state;
  const base = state ?? emptySession(events[0]?.sessionId ?? '');
  const draft: SessionState = {
    ...base,
    entries: base.entries.slice(),
    toolIndex: { ...base.toolIndex },
  };
  for (const event of events) {
    if (event.seq <= draft.lastSeq && draft.lastSeq !== 0) continue; // replayed twice: ignore
    applyEvent(draft, event);
    noteToolCall(draft, event);
    draft.lastSeq = event.seq;
    draft.lastActivity = event.ts;
  }
  return draft;
}

function entryId(state: SessionState, seq: number): string {
  return `${state.sessionId}:${seq}`;
}

function push(state: SessionState, entry: TranscriptEntry): void {
  state.entries.push(entry);
}

function last(state: SessionState): TranscriptEntry | undefined {
  return state.entries[state.entries.length - 1];
}

function str(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : fallback;
}

function arr<T = RawObject>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

function isObject(value: unknown): value is RawObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Neutral event kinds (what ACP v1 cannot express) are folded in reduceNeutral.ts. */
const NEUTRAL_HELPERS: NeutralHelpers = { settle: (state, to) => settleOpenToolCalls(state, to), recompute: (state) => recomputeStatus(state) };

function applyEvent(state: SessionState, event: SessionEvent): void {
  if (isNeutralEvent(event)) return applyNeutralEvent(state, event, NEUTRAL_HELPERS);
  switch (event.kind) {
    case 'session.created':
      state.agentId = event.agentId;
      state.agentName = event.agentName;
      state.cwd = event.cwd;
      if (event.additionalDirectories?.length) state.additionalDirectories = event.additionalDirectories;
      if (event.title) state.title = event.title;
      if (event.acpSessionId) state.acpSessionId = event.acpSessionId;
      state.status = 'starting';
      return;
    case 'session.connected':
      state.acpSessionId = event.acpSessionId;
      if (event.protocolVersion !== undefined) state.protocolVersion = event.protocolVersion;
      if (state.status === 'starting' || state.status === 'exited' || state.status === 'error') state.status = 'idle';
      if (Array.isArray(event.configOptions)) state.configOptions = event.configOptions.filter(isObject);
      if (isObject(event.modes)) {
        state.modes = {
          currentModeId: str(event.modes.currentModeId) || null,
          availableModes: arr(event.modes.availableModes),
        };
      }
      state.readonlyReason = null;
      state.authMethods = null;
      return;
    case 'acp.update':
      applyUpdate(state, event.update, event.seq);
      return;
    case 'turn.started':
      state.currentTurnId = event.turnId;
      state.status = 'running';
      push(state, { kind: 'user', id: entryId(state, event.seq), turnId: event.turnId, content: event.prompt });
      return;
    case 'turn.ended':
      settleOpenToolCalls(state, event.stopReason === 'cancelled' ? 'canceled' : 'completed');
      state.currentTurnId = null;
      // A sign-in asked for by the prompt is a step, not a failure: the session waits for the person.
      state.status = state.permissions.length || state.elicitations.length || state.authMethods ? 'waiting' : event.error ? 'error' : 'idle';
      push(state, {
        kind: 'stop',
        id: entryId(state, event.seq),
        stopReason: event.stopReason,
        error: event.error,
        ...(event.usage ? { usage: event.usage } : {}),
      });
      return;
    case 'prompt.queued':
      state.queue = [...state.queue, { queueId: event.queueId, prompt: event.prompt }];
      return;
    case 'prompt.dequeued':
      state.queue = state.queue.filter((q) => q.queueId !== event.queueId);
      return;
    case 'permission.requested': {
      const toolCallId = str(event.toolCall.toolCallId, `permission-${event.requestId}`);
      state.permissions = [
        ...state.permissions,
        {
          requestId: event.requestId,
          toolCallId,
          toolCall: event.toolCall,
          options: event.options,
          ...(event.title !== undefined ? { title: event.title, description: event.description ?? null, subject: event.subject ?? null } : {}),
        },
      ];
      // Agents may ask about a tool call they never announced: show it from the request's fields.
      const index = state.toolIndex[toolCallId];
      if (index === undefined) {
        const entry = toolFromRaw({ ...event.toolCall, toolCallId }, entryId(state, event.seq));
        entry.synthetic = true;
        entry.permissionRequestId = event.requestId;
        entry.status = 'awaiting_permission';
        state.toolIndex[toolCallId] = state.entries.length;
        push(state, entry);
      } else {
        const current = state.entries[index] as ToolCallEntry;
        state.entries[index] = mergeTool({ ...current, permissionRequestId: event.requestId, status: 'awaiting_permission' }, event.toolCall, true);
      }
      state.status = 'waiting';
      return;
    }
    case 'permission.resolved': {
      const pending = state.permissions.find((p) => p.requestId === event.requestId);
      state.permissions = state.permissions.filter((p) => p.requestId !== event.requestId);
      if (pending) {
        const index = state.toolIndex[pending.toolCallId];
        if (index !== undefined) {
          const current = state.entries[index] as ToolCallEntry;
          const option = pending.options.find((o) => o.optionId === event.optionId);
          const rejected = !option || option.kind.startsWith('reject');
          state.entries[index] = {
            ...current,
            permissionOutcome: { optionId: event.optionId, name: option?.name, kind: option?.kind, reason: event.reason },
            permissionRequestId: undefined,
            status: current.status === 'awaiting_permission' ? (rejected ? (option ? 'failed' : 'canceled') : 'pending') : current.status,
          };
        }
      }
      state.status = recomputeStatus(state);
      return;
    }
    case 'elicitation.requested':
      state.elicitations = [...state.elicitations, { requestId: event.requestId, request: event.request }];
      state.status = 'waiting';
      return;
    case 'elicitation.resolved':
      state.elicitations = state.elicitations.filter((e) => e.requestId !== event.requestId);
      state.status = recomputeStatus(state);
      return;
    case 'elicitation.completed':
      return;
    case 'terminal.created':
      state.terminals = {
        ...state.terminals,
        [event.terminalId]: {
          terminalId: event.terminalId,
          command: event.command,
          args: event.args,
          cwd: event.cwd,
          output: '',
          exited: false,
          released: false,
          interactive: event.interactive,
        },
      };
      return;
    case 'terminal.output': {
      const terminal = state.terminals[event.terminalId];
      if (!terminal) return;
      state.terminals = { ...state.terminals, [event.terminalId]: { ...terminal, output: capOutput(terminal.output + event.data) } };
      return;
    }
    case 'terminal.exited': {
      const terminal = state.terminals[event.terminalId];
      if (!terminal) return;
      state.terminals = {
        ...state.terminals,
        [event.terminalId]: { ...terminal, exited: true, exitCode: event.exitCode, signal: event.signal },
      };
      return;
    }
    case 'terminal.released': {
      const terminal = state.terminals[event.terminalId];
      if (!terminal) return;
      state.terminals = { ...state.terminals, [event.terminalId]: { ...terminal, released: true } };
      return;
    }
    case 'file.written':
      state.files = { ...state.files, [event.path]: { oldText: state.files[event.path]?.oldText ?? event.oldText, newText: event.newText } };
      push(state, { kind: 'file', id: entryId(state, event.seq), path: event.path, oldText: event.oldText, newText: event.newText });
      return;
    case 'config.options':
      state.configOptions = event.configOptions.filter(isObject);
      return;
    case 'mode.changed':
      if (state.modes) state.modes = { ...state.modes, currentModeId: event.modeId };
      return;
    case 'title.changed':
      state.title = event.title;
      if (event.byPerson) state.titleByPerson = true;
      return;
    case 'session.bound':
      state.acpSessionId = event.acpSessionId;
      return;
    case 'acp.rejected':
      push(state, {
        kind: 'unknown',
        id: entryId(state, event.seq),
        label: event.note ?? `The agent's ${event.method} request could not be handled`,
        raw: { method: event.method, params: event.params, answer: event.error },
      });
      return;
    case 'auth.required':
      state.authMethods = event.methods;
      state.status = 'waiting';
      push(state, {
        kind: 'notice',
        id: entryId(state, event.seq),
        level: 'warning',
        message: event.message ?? `${state.agentName || 'The agent'} needs you to sign in.`,
      });
      return;
    case 'auth.completed':
      state.authMethods = null;
      state.status = recomputeStatus(state);
      return;
    case 'agent.exited':
      settleOpenToolCalls(state, 'failed');
      state.permissions = [];
      state.elicitations = [];
      state.currentTurnId = null;
      state.status = 'exited';
      push(state, {
        kind: 'notice',
        id: entryId(state, event.seq),
        level: 'error',
        message: `The agent exited${event.code !== null ? ` with code ${event.code}` : ''}${event.signal ? ` (signal ${event.signal})` : ''}.`,
        detail: event.stderrTail,
        ts: event.ts,
      });
      return;
    case 'notice':
      if (event.level === 'error' && state.status === 'starting') state.status = 'error';
      push(state, { kind: 'notice', id: entryId(state, event.seq), level: event.level, message: event.message, ts: event.ts });
      return;
    case 'session.readonly':
      state.readonlyReason = event.reason;
      if (state.status === 'starting') state.status = 'idle';
      return;
    default: {
      // An event kind from a newer version of the app: keep it visible, never drop it.
      const raw: unknown = event;
      push(state, { kind: 'unknown', id: entryId(state, event.seq), label: `event ${(event as { kind: string }).kind}`, raw });
    }
  }
}

function recomputeStatus(state: SessionState): SessionState['status'] {
  if (state.permissions.length || state.elicitations.length || state.authMethods) return 'waiting';
  if (state.currentTurnId) return 'running';
  return state.status === 'exited' ? 'exited' : 'idle';
}

/** Terminal output kept in state is bounded so a chatty command cannot grow memory forever. */
const MAX_TERMINAL_OUTPUT = 512 * 1024;
function capOutput(text: string): string {
  return text.length > MAX_TERMINAL_OUTPUT ? text.slice(text.length - MAX_TERMINAL_OUTPUT) : text;
}

/**
 * When a turn ends, calls still `pending`/`in_progress` will never be updated (agents
 * leave them open after a rejected permission): settle them so nothing spins forever.
 */
function settleOpenToolCalls(state: SessionState, to: 'completed' | 'canceled' | 'failed'): void {
  // Only from the lowest entry a tool call was touched in since the last settle: scanning every
  // tool call at every turn's end made folding a long session quadratic (bench/openSession).
  for (let index = state.openToolFrom ?? 0; index < state.entries.length; index++) {
    const entry = state.entries[index];
    if (entry?.kind !== 'tool') continue;
    if (entry.status === 'pending' || entry.status === 'in_progress' || entry.status === 'awaiting_permission') {
      state.entries[index] = { ...entry, status: to === 'completed' ? 'canceled' : to, permissionRequestId: undefined };
    }
  }
  state.openToolFrom = state.entries.length;
}

/** Lowers the settle watermark to a tool call an event created or changed (it may be open now). */
function noteToolCall(state: SessionState, event: SessionEvent): void {
  let toolCallId: string | null = null;
  if (event.kind === 'permission.requested') toolCallId = str(event.toolCall.toolCallId, `permission-${event.requestId}`);
  else if (event.kind === 'acp.update' && (event.update.sessionUpdate === 'tool_call' || event.update.sessionUpdate === 'tool_call_update'))
    toolCallId = str(event.update.toolCallId);
  if (toolCallId === null || state.openToolFrom === undefined) return;
  const index = state.toolIndex[toolCallId];
  if (index !== undefined && index < state.openToolFrom) state.openToolFrom = index;
}

function toolFromRaw(raw: RawObject, id: string): ToolCallEntry {
  return mergeTool(
    {
      kind: 'tool',
      id,
      toolCallId: str(raw.toolCallId),
      title: '',
      toolKind: 'other',
      status: 'pending',
      content: [],
      locations: [],
    },
    raw,
    false,
  );
}

/** Merges the fields present in an update; absent fields keep their value (ACP semantics). */
function mergeTool(entry: ToolCallEntry, raw: RawObject, keepStatus: boolean): ToolCallEntry {
  const next = { ...entry };
  if (typeof raw.title === 'string') next.title = raw.title;
  if (typeof raw.kind === 'string') next.toolKind = raw.kind;
  if (typeof raw.status === 'string' && !keepStatus) next.status = raw.status;
  if (Array.isArray(raw.content)) next.content = raw.content.filter(isObject);
  if (Array.isArray(raw.locations)) next.locations = raw.locations.filter(isObject);
  if ('rawInput' in raw) next.rawInput = raw.rawInput;
  if ('rawOutput' in raw) next.rawOutput = raw.rawOutput;
  if ('_meta' in raw) next.meta = raw._meta;
  return next;
}

function applyUpdate(state: SessionState, update: RawObject, seq: number): void {
  const kind = str(update.sessionUpdate);
  // Anything this version does not understand becomes an `unknown` entry, kept raw.
  if (!isKnown(KNOWN_UPDATE_KINDS, kind)) {
    push(state, { kind: 'unknown', id: entryId(state, seq), label: `update ${kind || '(no kind)'}`, raw: update });
    return;
  }
  switch (kind) {
    case 'agent_message_chunk':
    case 'agent_thought_chunk':
    case 'user_message_chunk': {
      const content = isObject(update.content) ? (update.content as ContentBlock) : undefined;
      if (!content) return;
      appendChunk(state, kind, content, str(update.messageId) || undefined, seq);
      return;
    }
    case 'tool_call': {
      const toolCallId = str(update.toolCallId);
      const index = state.toolIndex[toolCallId];
      if (index !== undefined) {
        // Re-announced (e.g. replay): treat as an update.
        state.entries[index] = mergeTool(state.entries[index] as ToolCallEntry, update, false);
        return;
      }
      state.toolIndex[toolCallId] = state.entries.length;
      push(state, toolFromRaw(update, entryId(state, seq)));
      return;
    }
    case 'tool_call_update': {
      const toolCallId = str(update.toolCallId);
      const index = state.toolIndex[toolCallId];
      if (index === undefined) {
        state.toolIndex[toolCallId] = state.entries.length;
        push(state, toolFromRaw(update, entryId(state, seq)));
        return;
      }
      const current = state.entries[index] as ToolCallEntry;
      state.entries[index] = mergeTool(current, update, current.status === 'awaiting_permission');
      return;
    }
    case 'plan': {
      const entries: PlanEntryItem[] = arr(update.entries)
        .filter(isObject)
        .map((raw) => ({
          content: str(raw.content),
          priority: str(raw.priority, 'medium'),
          status: str(raw.status, 'pending'),
          raw,
        }));
      state.plan = entries;
      // One plan entry per turn in the transcript, updated live.
      const lastPlan = findLastPlanInTurn(state);
      if (lastPlan !== -1) state.entries[lastPlan] = { kind: 'plan', id: state.entries[lastPlan].id, entries };
      else push(state, { kind: 'plan', id: entryId(state, seq), entries });
      return;
    }
    case 'available_commands_update':
      state.commands = arr(update.availableCommands).filter(isObject);
      return;
    case 'current_mode_update':
      if (typeof update.currentModeId === 'string' || typeof update.modeId === 'string') {
        const modeId = str(update.currentModeId) || str(update.modeId);
        state.modes = { currentModeId: modeId, availableModes: state.modes?.availableModes ?? [] };
      }
      return;
    case 'config_option_update':
      if (Array.isArray(update.configOptions)) state.configOptions = update.configOptions.filter(isObject);
      return;
    case 'session_info_update':
      // A person's rename wins over titles the agent generates later.
      if ('title' in update && !state.titleByPerson) state.title = typeof update.title === 'string' ? update.title : null;
      if ('updatedAt' in update || '_meta' in update) {
        const info = { ...state.info };
        if ('updatedAt' in update) info.updatedAt = typeof update.updatedAt === 'string' ? update.updatedAt : null;
        if ('_meta' in update) info.meta = update._meta;
        state.info = info;
      }
      return;
    case 'usage_update': {
      const { used, size, cost } = usageView(update);
      state.usage = { used, size, cost };
      return;
    }
  }
}

function findLastPlanInTurn(state: SessionState): number {
  for (let i = state.entries.length - 1; i >= 0; i--) {
    const entry = state.entries[i];
    if (entry.kind === 'plan') return i;
    if (entry.kind === 'user' || entry.kind === 'stop') return -1;
  }
  return -1;
}

/** Chunks continue a message unless both carry a `messageId` and they differ (rfds-message-id: optional in v1). */
function sameMessageId(current: string | undefined, next: string | undefined): boolean {
  return !current || !next || current === next;
}

// ---- rfds-message-id for thought and replayed user chunks (issue 27). Their entries have no
// `messageId` field (the same conversation in v1 without ids and v2 with them must fold to the
// same entries); the id lives in `messageIndex`, as v2's message upserts keep it: `role:id` → the
// entry's index, and `role#` → the index of the last entry of that role that came with an id.

/** Whether a chunk with `messageId` continues the last entry (of `role`, already checked by the caller). */
function continuesTail(state: SessionState, role: 'thought' | 'user', messageId: string | undefined): boolean {
  const index = state.entries.length - 1;
  if (!messageId || state.messageIndex?.[`${role}#`] !== index) return true;
  return state.messageIndex?.[`${role}:${messageId}`] === index;
}

/** Remembers the id of the entry just pushed (a later chunk with another id starts a new one; a v2 upsert finds it). */
function noteTailMessage(state: SessionState, role: 'thought' | 'user', messageId: string | undefined): void {
  if (!messageId) return;
  const index = state.entries.length - 1;
  state.messageIndex = { ...state.messageIndex, [`${role}:${messageId}`]: index, [`${role}#`]: index };
}
// ---- end of rfds-message-id for thoughts and replayed user chunks.

function appendChunk(
  state: SessionState,
  kind: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk',
  content: ContentBlock,
  messageId: string | undefined,
  seq: number,
): void {
  const tail = last(state);
  const text = content.type === 'text' ? str(content.text) : null;
  if (kind === 'user_message_chunk') {
    // The prompt is shown optimistically at `turn.started`; agents that echo it would show it twice.
    if (state.currentTurnId) return;
    if (tail?.kind === 'user' && tail.turnId === 'replay' && continuesTail(state, 'user', messageId)) {
      state.entries[state.entries.length - 1] = { ...tail, content: [...tail.content, content] };
    } else {
      push(state, { kind: 'user', id: entryId(state, seq), turnId: 'replay', content: [content] });
      noteTailMessage(state, 'user', messageId);
    }
    return;
  }
  if (kind === 'agent_thought_chunk') {
    if (tail?.kind === 'thought' && continuesTail(state, 'thought', messageId)) {
      state.entries[state.entries.length - 1] = { ...tail, text: tail.text + (text ?? '') };
    } else {
      push(state, { kind: 'thought', id: entryId(state, seq), text: text ?? '' });
      noteTailMessage(state, 'thought', messageId);
    }
    return;
  }
  const sameMessage = tail?.kind === 'agent' && sameMessageId(tail.messageId, messageId);
  if (tail?.kind === 'agent' && sameMessage) {
    state.entries[state.entries.length - 1] = text !== null ? { ...tail, text: tail.text + text } : { ...tail, blocks: [...tail.blocks, content] };
  } else {
    push(state, {
      kind: 'agent',
      id: entryId(state, seq),
      text: text ?? '',
      blocks: text !== null ? [] : [content],
      messageId,
    });
  }
}
