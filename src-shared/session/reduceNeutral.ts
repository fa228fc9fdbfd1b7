import { AUTH_REQUIRED_CODE, AUTH_RETRY_NOTE } from '../acp/error';
import type { ContentBlock, RawObject, SessionEvent } from './events';
import { NEUTRAL_EVENT_KINDS, type NeutralEventBody } from './neutralEvents';
import type { PlanEntryItem, SessionState, TerminalState, ToolCallEntry, TranscriptEntry } from './state';

/** What the main reducer lends this one (so the turn's end settles tool calls exactly as `turn.ended` does). */
export interface NeutralHelpers {
  settle(state: SessionState, to: 'completed' | 'canceled' | 'failed'): void;
  recompute(state: SessionState): SessionState['status'];
}

type NeutralEvent = Extract<SessionEvent, NeutralEventBody>;

const KINDS = new Set<string>(NEUTRAL_EVENT_KINDS);

export function isNeutralEvent(event: SessionEvent): event is NeutralEvent {
  return KINDS.has(event.kind);
}

function isObject(value: unknown): value is RawObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function entryId(state: SessionState, seq: number): string {
  return `${state.sessionId}:${seq}`;
}

/** Applies one neutral event (see neutralEvents.ts) to a draft state the caller already copied. */
export function applyNeutralEvent(state: SessionState, event: NeutralEvent, helpers: NeutralHelpers): void {
  switch (event.kind) {
    case 'message.upserted':
      upsertMessage(state, event.role, event.messageId, event.content, event.seq);
      return;
    case 'tool.patched':
      patchTool(state, event.toolCallId, event.patch, event.seq);
      return;
    case 'tool.contentAppended': {
      const index = toolEntry(state, event.toolCallId, event.seq);
      const current = state.entries[index] as ToolCallEntry;
      state.entries[index] = { ...current, content: [...current.content, event.content] };
      return;
    }
    case 'plan.updated':
      updatePlan(state, event.planId, event.plan, event.seq);
      return;
    case 'agentTerminal.updated':
      updateTerminal(state, event);
      return;
    case 'session.state':
      applyState(state, event, helpers);
      return;
  }
}

function upsertMessage(state: SessionState, role: 'agent' | 'user' | 'thought', messageId: string, content: ContentBlock[], seq: number): void {
  // The prompt is shown optimistically at `turn.started`; the agent's copy of it would show it twice.
  if (role === 'user' && state.currentTurnId) return;
  const text = content
    .filter((block) => block.type === 'text')
    .map((block) => (typeof block.text === 'string' ? block.text : ''))
    .join('');
  const blocks = content.filter((block) => block.type !== 'text');
  const key = `${role}:${messageId}`;
  const index = state.messageIndex?.[key] ?? findMessage(state, role, messageId);
  let entry: TranscriptEntry;
  if (role === 'agent') entry = { kind: 'agent', id: '', text, blocks, messageId };
  else if (role === 'thought') entry = { kind: 'thought', id: '', text };
  else entry = { kind: 'user', id: '', turnId: 'replay', content };
  if (index !== undefined && state.entries[index]?.kind === entry.kind) {
    state.entries[index] = { ...entry, id: state.entries[index].id } as TranscriptEntry;
    return;
  }
  state.messageIndex = { ...state.messageIndex, [key]: state.entries.length };
  state.entries.push({ ...entry, id: entryId(state, seq) } as TranscriptEntry);
}

/** An agent message streamed as chunks first and then upserted whole has no index entry yet. */
function findMessage(state: SessionState, role: string, messageId: string): number | undefined {
  if (role !== 'agent') return undefined;
  for (let i = state.entries.length - 1; i >= 0; i--) {
    const entry = state.entries[i];
    if (entry.kind === 'agent' && entry.messageId === messageId) return i;
  }
  return undefined;
}

/** The index of the tool call's entry, created with protocol defaults when first seen. */
function toolEntry(state: SessionState, toolCallId: string, seq: number): number {
  const index = state.toolIndex[toolCallId];
  if (index !== undefined) return index;
  state.toolIndex[toolCallId] = state.entries.length;
  state.entries.push({ kind: 'tool', id: entryId(state, seq), toolCallId, title: '', toolKind: 'other', status: 'pending', content: [], locations: [] });
  return state.entries.length - 1;
}

function patchTool(state: SessionState, toolCallId: string, patch: RawObject, seq: number): void {
  const index = toolEntry(state, toolCallId, seq);
  const current = state.entries[index] as ToolCallEntry;
  const next: ToolCallEntry = { ...current };
  if ('title' in patch) next.title = typeof patch.title === 'string' ? patch.title : '';
  if ('kind' in patch) next.toolKind = typeof patch.kind === 'string' ? patch.kind : 'other';
  // A call waiting for the person keeps that status until the answer (as v1 updates do).
  if ('status' in patch && current.status !== 'awaiting_permission') next.status = typeof patch.status === 'string' ? patch.status : 'pending';
  if ('content' in patch) next.content = Array.isArray(patch.content) ? patch.content.filter(isObject) : [];
  if ('locations' in patch) next.locations = Array.isArray(patch.locations) ? patch.locations.filter(isObject) : [];
  if ('rawInput' in patch) setOrDelete(next, 'rawInput', patch.rawInput);
  if ('rawOutput' in patch) setOrDelete(next, 'rawOutput', patch.rawOutput);
  if ('name' in patch) setOrDelete(next, 'name', typeof patch.name === 'string' ? patch.name : null);
  if ('capabilities' in patch) setOrDelete(next, 'capabilities', isObject(patch.capabilities) ? patch.capabilities : null);
  if ('_meta' in patch) setOrDelete(next, 'meta', patchMeta(current.meta, patch._meta));
  state.entries[index] = next;
  // The turn's end settles from this watermark: a call patched again may be open again.
  if (state.openToolFrom !== undefined && index < state.openToolFrom) state.openToolFrom = index;
}

function setOrDelete<K extends keyof ToolCallEntry>(entry: ToolCallEntry, key: K, value: ToolCallEntry[K] | null | undefined): void {
  if (value === null || value === undefined) delete entry[key];
  else entry[key] = value;
}

/** `_meta` patch rule: null clears, an object patches by top-level key (null-valued keys removed). */
function patchMeta(current: unknown, patch: unknown): unknown {
  if (patch === null) return undefined;
  if (!isObject(patch)) return current;
  const next: RawObject = isObject(current) ? { ...current } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return Object.keys(next).length ? next : undefined;
}

function updatePlan(state: SessionState, planId: string, plan: RawObject, seq: number): void {
  const index = state.planIndex?.[planId];
  if (plan.type !== 'items' || !Array.isArray(plan.entries)) {
    state.entries.push({ kind: 'unknown', id: entryId(state, seq), label: `plan ${String(plan.type)}`, raw: plan });
    return;
  }
  const entries: PlanEntryItem[] = plan.entries.filter(isObject).map((raw) => ({
    content: typeof raw.content === 'string' ? raw.content : '',
    priority: typeof raw.priority === 'string' ? raw.priority : 'medium',
    status: typeof raw.status === 'string' ? raw.status : 'pending',
    raw,
  }));
  state.plan = entries;
  if (index !== undefined && state.entries[index]?.kind === 'plan') {
    state.entries[index] = { kind: 'plan', id: state.entries[index].id, entries };
    return;
  }
  state.planIndex = { ...state.planIndex, [planId]: state.entries.length };
  state.entries.push({ kind: 'plan', id: entryId(state, seq), entries });
}

function updateTerminal(state: SessionState, event: Extract<NeutralEvent, { kind: 'agentTerminal.updated' }>): void {
  const current: TerminalState = state.terminals[event.terminalId] ?? {
    terminalId: event.terminalId,
    command: '',
    args: [],
    output: '',
    exited: false,
    released: false,
    owner: 'agent',
  };
  const next: TerminalState = { ...current };
  if (event.command !== undefined) next.command = event.command ?? '';
  if (event.cwd !== undefined) next.cwd = event.cwd;
  if (event.output !== undefined) {
    next.output = event.output ?? '';
    next.outputEpoch = (current.outputEpoch ?? 0) + 1;
  }
  if (event.exitStatus !== undefined) {
    next.exited = event.exitStatus !== null;
    next.exitCode = event.exitStatus?.exitCode ?? null;
    next.signal = event.exitStatus?.signal ?? null;
  }
  if (event.cancellable !== undefined) next.cancellable = event.cancellable;
  state.terminals = { ...state.terminals, [event.terminalId]: next };
}

const KNOWN_STATES = new Set(['running', 'requires_action', 'idle']);

function applyState(state: SessionState, event: Extract<NeutralEvent, { kind: 'session.state' }>, helpers: NeutralHelpers): void {
  if (Array.isArray(event.background)) state.background = event.background;
  else if (event.background === null || !KNOWN_STATES.has(event.state)) delete state.background;
  if (event.state === 'idle') {
    // A repeated or resume snapshot is not a new completion; nor is an idle for a turn the app
    // already ended (the agent answered a cancel after the grace period).
    if (!event.turnEnded || !state.currentTurnId) {
      if (!state.currentTurnId) state.status = helpers.recompute(state);
      return;
    }
    // The same transition as `turn.ended` from v1's prompt answer; a sign-in asked for reads as in v1.
    const authRequired = event.error?.code === AUTH_REQUIRED_CODE;
    const stopReason = authRequired ? 'auth_required' : (event.stopReason ?? 'end_turn');
    const error = authRequired ? AUTH_RETRY_NOTE : event.error ? String(event.error.message ?? `error ${String(event.error.code)}`) : undefined;
    const usage = isObject(event.raw.usage) ? event.raw.usage : null;
    // Tool calls the agent lists as background work keep running past the turn: not settled.
    const background = new Map<number, ToolCallEntry>();
    for (const work of event.background ?? []) {
      const index = work.type === 'tool_call' && typeof work.toolCallId === 'string' ? state.toolIndex[work.toolCallId] : undefined;
      if (index !== undefined && state.entries[index]?.kind === 'tool') background.set(index, state.entries[index] as ToolCallEntry);
    }
    helpers.settle(state, stopReason === 'cancelled' ? 'canceled' : 'completed');
    for (const [index, entry] of background) state.entries[index] = entry;
    if (background.size) state.openToolFrom = Math.min(state.openToolFrom ?? 0, ...background.keys());
    state.currentTurnId = null;
    state.status = state.permissions.length || state.elicitations.length || state.authMethods || authRequired ? 'waiting' : error ? 'error' : 'idle';
    state.entries.push({ kind: 'stop', id: entryId(state, event.seq), stopReason, error, ...(usage ? { usage } : {}) });
    return;
  }
  if (!state.currentTurnId) {
    // Work the person did not start: a turn of the agent's own.
    state.currentTurnId = `agent:${event.seq}`;
    state.entries.push({
      kind: 'notice',
      id: entryId(state, event.seq),
      level: 'info',
      message: `${state.agentName || 'The agent'} started working on its own.`,
    });
  }
  if (event.state === 'requires_action') {
    state.status = 'waiting';
    return;
  }
  if (!KNOWN_STATES.has(event.state)) {
    // An unknown state counts as busy, never idle; shown once per change.
    const last = state.entries[state.entries.length - 1];
    const label = `session state ${event.state}`;
    if (!(last?.kind === 'unknown' && last.label === label)) state.entries.push({ kind: 'unknown', id: entryId(state, event.seq), label, raw: event.raw });
  }
  state.status = state.permissions.length || state.elicitations.length || state.authMethods ? 'waiting' : 'running';
}
