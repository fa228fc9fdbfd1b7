// Over 400 lines on purpose: the fold is one switch over every event kind (the app's own and
// what agents report, whatever the protocol version), and keeping it in one place is what makes
// "state = fold(events)" checkable by reading. Transcript helpers (messages, tool calls, plans,
// the agent's state) are in foldTranscript.ts.
import type { SessionEvent } from './events';
import { applySessionState, appendChunk, applyToolFields, newTool, replacePlan, upsertMessage, type FoldHelpers } from './foldTranscript';
import { applyCheckpointEvent, isCheckpointEvent } from './reduceCheckpoints';
import { emptySession, type SessionState, type TerminalState, type ToolCallEntry, type TranscriptEntry } from './state';
import { isHole } from './window';

/**
 * Applies a batch of events to a session's state and returns the new state.
 *
 * Pure from the caller's side: the input state is never mutated. Inside, the entry list
 * is copied once per batch (not once per event) so that ten thousand streamed chunks
 * cost one array copy, and only the entries an event touches get new objects, so a
 * React row that selects its own entry re-renders only when that entry changed. The
 * tool-call index and the terminals are copied only by a batch that writes them.
 */
export function reduceSession(state: SessionState | undefined, events: readonly SessionEvent[]): SessionState {
  if (events.length === 0 && state) return state;
  const base = state ?? emptySession(events[0]?.sessionId ?? '');
  const draft: SessionState = {
    ...base,
    entries: base.entries.slice(),
  };
  batchBaseTerminals = base.terminals;
  batchBaseToolIndex = base.toolIndex;
  for (const event of events) {
    if (event.seq <= draft.lastSeq && draft.lastSeq !== 0) continue; // replayed twice: ignore
    applyEvent(draft, event);
    noteToolCall(draft, event);
    draft.lastSeq = event.seq;
    draft.lastActivity = event.ts;
  }
  return draft;
}

/**
 * The terminals record of the state the current batch started from: the batch copies it on its
 * first terminal event and writes its copy in place after that. A copy per event made folding a
 * session with thousands of terminals quadratic (71 s for 6,250 terminals; issue 23).
 */
let batchBaseTerminals: SessionState['terminals'] | null = null;

/**
 * The tool-call index of the state the current batch started from, in the same way: copied on the
 * batch's first new tool call. A copy for every batch cost 5.6 ms a batch in a session of 50,000
 * entries (12,500 tool calls), in main and in the page alike (issue 23).
 */
let batchBaseToolIndex: SessionState['toolIndex'] | null = null;

function indexTool(state: SessionState, toolCallId: string, index: number): void {
  if (state.toolIndex === batchBaseToolIndex) state.toolIndex = { ...state.toolIndex };
  state.toolIndex[toolCallId] = index;
}

function setTerminal(state: SessionState, terminalId: string, terminal: TerminalState): void {
  if (state.terminals === batchBaseTerminals) state.terminals = { ...state.terminals };
  state.terminals[terminalId] = terminal;
}

function entryId(state: SessionState, seq: number): string {
  return `${state.sessionId}:${seq}`;
}

function push(state: SessionState, entry: TranscriptEntry): void {
  state.entries.push(entry);
}

const HELPERS: FoldHelpers = { settle: (state, to) => settleOpenToolCalls(state, to), recompute: (state) => recomputeStatus(state) };

function applyEvent(state: SessionState, event: SessionEvent): void {
  // Checkpoint events (snapshots, turn changes, restores, review decisions) fold in reduceCheckpoints.ts.
  if (isCheckpointEvent(event)) return applyCheckpointEvent(state, event);
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
      if (event.configOptions) state.configOptions = event.configOptions;
      if (event.modes) state.modes = event.modes;
      state.readonlyReason = null;
      state.authMethods = null;
      return;
    case 'turn.started':
      state.currentTurnId = event.turnId;
      state.status = 'running';
      // Message ids name messages of one exchange: a new prompt starts afresh.
      delete state.messageIndex;
      push(state, { kind: 'user', id: entryId(state, event.seq), turnId: event.turnId, content: event.prompt });
      return;
    case 'turn.ended':
      // Already ended by the agent's own report (v2 `idle`): one end, one alert.
      if (state.currentTurnId === null) return;
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
      const { toolCallId } = event;
      state.permissions = [
        ...state.permissions,
        {
          requestId: event.requestId,
          toolCallId,
          tool: event.tool,
          options: event.options,
          ...(event.standalone ? { standalone: true } : {}),
          ...(event.title !== undefined ? { title: event.title, description: event.description ?? null, subject: event.subject ?? null } : {}),
        },
      ];
      // Agents may ask about a tool call they never announced: show it from the request's fields.
      const index = state.toolIndex[toolCallId];
      if (index === undefined) {
        const entry = applyToolFields(newTool(toolCallId, entryId(state, event.seq)), { title: event.title ?? '', ...event.tool }, false);
        entry.synthetic = true;
        entry.permissionRequestId = event.requestId;
        entry.status = 'awaiting_permission';
        indexTool(state, toolCallId, state.entries.length);
        push(state, entry);
      } else if (!isHole(state.entries, index)) {
        const current = state.entries[index] as ToolCallEntry;
        state.entries[index] = applyToolFields({ ...current, permissionRequestId: event.requestId, status: 'awaiting_permission' }, event.tool, false);
      }
      state.status = 'waiting';
      return;
    }
    case 'permission.resolved': {
      const pending = state.permissions.find((p) => p.requestId === event.requestId);
      state.permissions = state.permissions.filter((p) => p.requestId !== event.requestId);
      if (pending) {
        const index = state.toolIndex[pending.toolCallId];
        if (index !== undefined && !isHole(state.entries, index)) {
          const current = state.entries[index] as ToolCallEntry;
          const option = pending.options.find((o) => o.optionId === event.optionId);
          const rejected = !option || option.kind.startsWith('reject');
          // A request about no reported tool call is its own card: answered, it is done.
          const allowed = pending.standalone ? 'completed' : 'pending';
          state.entries[index] = {
            ...current,
            permissionOutcome: { optionId: event.optionId, name: option?.name, kind: option?.kind, reason: event.reason },
            permissionRequestId: undefined,
            status: current.status === 'awaiting_permission' ? (rejected ? (option ? 'failed' : 'canceled') : allowed) : current.status,
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
      setTerminal(state, event.terminalId, {
        terminalId: event.terminalId,
        command: event.command,
        args: event.args,
        cwd: event.cwd,
        output: '',
        exited: false,
        released: false,
        interactive: event.interactive,
      });
      return;
    case 'terminal.output': {
      const terminal = state.terminals[event.terminalId];
      if (!terminal) return;
      setTerminal(state, event.terminalId, { ...terminal, output: capOutput(terminal.output + event.data) });
      return;
    }
    case 'terminal.exited': {
      const terminal = state.terminals[event.terminalId];
      if (!terminal) return;
      setTerminal(state, event.terminalId, { ...terminal, exited: true, exitCode: event.exitCode, signal: event.signal });
      return;
    }
    case 'terminal.released': {
      const terminal = state.terminals[event.terminalId];
      if (!terminal) return;
      setTerminal(state, event.terminalId, { ...terminal, released: true });
      return;
    }
    case 'agentTerminal.updated': {
      const current = state.terminals[event.terminalId] ?? {
        terminalId: event.terminalId,
        command: '',
        args: [],
        output: '',
        exited: false,
        released: false,
        owner: 'agent' as const,
      };
      const next = { ...current };
      if (event.command !== undefined) next.command = event.command ?? '';
      if (event.cwd !== undefined) next.cwd = event.cwd;
      if (event.output !== undefined) {
        next.output = capOutput(event.output ?? '');
        next.outputEpoch = (current.outputEpoch ?? 0) + 1;
      }
      if (event.exitStatus !== undefined) {
        next.exited = event.exitStatus !== null;
        next.exitCode = event.exitStatus?.exitCode ?? null;
        next.signal = event.exitStatus?.signal ?? null;
      }
      if (event.cancellable !== undefined) next.cancellable = event.cancellable;
      setTerminal(state, event.terminalId, next);
      return;
    }
    case 'file.written':
      state.files = { ...state.files, [event.path]: { oldText: state.files[event.path]?.oldText ?? event.oldText, newText: event.newText } };
      push(state, { kind: 'file', id: entryId(state, event.seq), path: event.path, oldText: event.oldText, newText: event.newText });
      return;
    case 'config.options':
      state.configOptions = event.configOptions;
      return;
    case 'mode.changed':
      // The agent's switch is news even before the modes were listed; the app's own needs them.
      if (event.byAgent) state.modes = { currentModeId: event.modeId, availableModes: state.modes?.availableModes ?? [] };
      else if (state.modes) state.modes = { ...state.modes, currentModeId: event.modeId };
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
        ...(event.stderrLog ? { logFile: event.stderrLog } : {}),
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
    // ---------------------------------------------------------------- what the agent reported
    case 'message.chunk':
      appendChunk(state, event.role, event.content, event.messageId, event.seq);
      return;
    case 'message.upserted':
      upsertMessage(state, event.role, event.messageId, event.content, event.seq);
      return;
    case 'tool.updated': {
      const index = state.toolIndex[event.toolCallId];
      if (index === undefined) {
        indexTool(state, event.toolCallId, state.entries.length);
        push(state, applyToolFields(newTool(event.toolCallId, entryId(state, event.seq)), event.fields, false));
        return;
      }
      // A page holding only some entries (window.ts): main's copy of this one is the truth.
      if (isHole(state.entries, index)) return;
      state.entries[index] = applyToolFields(state.entries[index] as ToolCallEntry, event.fields, event.metaPatch === true);
      return;
    }
    case 'tool.contentAppended': {
      let index = state.toolIndex[event.toolCallId];
      if (index === undefined) {
        index = state.entries.length;
        indexTool(state, event.toolCallId, index);
        push(state, newTool(event.toolCallId, entryId(state, event.seq)));
      }
      if (isHole(state.entries, index)) return;
      const current = state.entries[index] as ToolCallEntry;
      state.entries[index] = { ...current, content: [...current.content, event.content] };
      return;
    }
    case 'plan.replaced':
      replacePlan(state, event.planId, event.entries, event.seq);
      return;
    case 'commands.updated':
      state.commands = event.commands;
      return;
    case 'session.info':
      // A person's rename wins over titles the agent generates later.
      if ('title' in event && !state.titleByPerson) state.title = event.title ?? null;
      if ('updatedAt' in event || 'meta' in event) {
        const info = { ...state.info };
        if ('updatedAt' in event) info.updatedAt = event.updatedAt ?? null;
        if ('meta' in event) info.meta = event.meta;
        state.info = info;
      }
      return;
    case 'usage.updated':
      state.usage = { used: event.used, size: event.size, cost: event.cost };
      return;
    case 'session.state':
      applySessionState(state, event, HELPERS);
      return;
    case 'update.unknown':
      push(state, { kind: 'unknown', id: entryId(state, event.seq), label: event.label, raw: event.raw });
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
  if (event.kind === 'permission.requested' || event.kind === 'tool.updated' || event.kind === 'tool.contentAppended') toolCallId = event.toolCallId;
  if (toolCallId === null || state.openToolFrom === undefined) return;
  const index = state.toolIndex[toolCallId];
  if (index !== undefined && index < state.openToolFrom) state.openToolFrom = index;
}
