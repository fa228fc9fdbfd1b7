import { AUTH_REQUIRED_CODE, AUTH_RETRY_NOTE } from '../acp/error';
import { isObject } from '../acp/read';
import type { AgentEventBody, MessageRole, PlanItem, ToolCallFields } from './agentEvents';
import type { ContentBlock, EventBase } from './events';
import type { PlanEntryItem, SessionState, ToolCallEntry, TranscriptEntry } from './state';
import { isHole } from './window';

/*
 * The parts of the fold (reducer.ts) that build the transcript from what the agent reported:
 * messages by id, tool calls as upserts, plans by id, the agent's own turn state. Each works on
 * the draft state `reduceSession` copied for the batch.
 */

/** What the fold lends these helpers (so the agent's turn end settles tool calls exactly as `turn.ended` does). */
export interface FoldHelpers {
  settle(state: SessionState, to: 'completed' | 'canceled' | 'failed'): void;
  recompute(state: SessionState): SessionState['status'];
}

function entryId(state: SessionState, seq: number): string {
  return `${state.sessionId}:${seq}`;
}

function textOf(block: ContentBlock): string | null {
  return block.type === 'text' ? (typeof block.text === 'string' ? block.text : '') : null;
}

function indexMessage(state: SessionState, key: string, index: number): void {
  if (state.messageIndex?.[key] !== index) state.messageIndex = { ...state.messageIndex, [key]: index };
}

// ---------------------------------------------------------------- messages

/**
 * A chunk goes to the message with its id (chunks of two messages may alternate); a chunk
 * without an id, or of a message not seen yet while the last entry is one without an id,
 * continues the last message (how ACP v1 agents stream).
 */
export function appendChunk(state: SessionState, role: MessageRole, content: ContentBlock, messageId: string | undefined, seq: number): void {
  const entries = state.entries;
  const tail = entries[entries.length - 1];
  const text = textOf(content);
  if (role === 'user') {
    // The prompt is shown optimistically at `turn.started`; agents that echo it would show it twice.
    if (state.currentTurnId) return;
    // A replayed message goes on while its id stays the same (or is absent); a new id is a new message.
    const userKey = messageId ? `user:${messageId}` : undefined;
    const last = entries.length - 1;
    const continues =
      tail?.kind === 'user' && tail.turnId === 'replay' && (userKey === undefined || !isIndexed(state, last, 'user') || state.messageIndex?.[userKey] === last);
    if (continues) entries[last] = { ...tail, content: [...tail.content, content] };
    else entries.push({ kind: 'user', id: entryId(state, seq), turnId: 'replay', content: [content] });
    if (userKey !== undefined) indexMessage(state, userKey, continues ? last : entries.length - 1);
    return;
  }
  const key = messageId ? `${role}:${messageId}` : undefined;
  let index = key !== undefined ? state.messageIndex?.[key] : undefined;
  // A page holding only some entries (window.ts): main's copy of this message is the truth.
  if (index !== undefined && isHole(entries, index)) return;
  if (index !== undefined && entries[index]?.kind !== (role === 'agent' ? 'agent' : 'thought')) index = undefined;
  if (index === undefined && tail) {
    if (role === 'thought' && tail.kind === 'thought' && !isIndexed(state, entries.length - 1, 'thought')) index = entries.length - 1;
    if (role === 'agent' && tail.kind === 'agent' && (!messageId || !tail.messageId || tail.messageId === messageId)) index = entries.length - 1;
  }
  if (index === undefined) {
    index = entries.length;
    if (role === 'thought') entries.push({ kind: 'thought', id: entryId(state, seq), text: text ?? '' });
    else entries.push({ kind: 'agent', id: entryId(state, seq), text: text ?? '', blocks: text !== null ? [] : [content], messageId });
  } else {
    const entry = entries[index];
    if (entry.kind === 'thought') entries[index] = { ...entry, text: entry.text + (text ?? '') };
    else if (entry.kind === 'agent') entries[index] = text !== null ? { ...entry, text: entry.text + text } : { ...entry, blocks: [...entry.blocks, content] };
  }
  if (key !== undefined) indexMessage(state, key, index);
}

/** A thought that belongs to another id: a chunk without an id does not continue it. */
function isIndexed(state: SessionState, index: number, role: MessageRole): boolean {
  if (!state.messageIndex) return false;
  for (const [key, at] of Object.entries(state.messageIndex)) if (at === index && key.startsWith(`${role}:`)) return true;
  return false;
}

/** A whole message replaces the message with its id; without `content` the message keeps its content. */
export function upsertMessage(state: SessionState, role: MessageRole, messageId: string, content: ContentBlock[] | undefined, seq: number): void {
  // The prompt is shown optimistically at `turn.started`; the agent's copy of it would show it twice.
  if (role === 'user' && state.currentTurnId) return;
  const key = `${role}:${messageId}`;
  const kind = role === 'agent' ? 'agent' : role === 'thought' ? 'thought' : 'user';
  let index = state.messageIndex?.[key];
  if (index !== undefined && isHole(state.entries, index)) return;
  if (index !== undefined && state.entries[index]?.kind !== kind) index = undefined;
  if (index !== undefined && content === undefined) return;
  const blocks = content ?? [];
  const text = blocks
    .map(textOf)
    .filter((t): t is string => t !== null)
    .join('');
  const id = index !== undefined ? state.entries[index].id : entryId(state, seq);
  let entry: TranscriptEntry;
  if (kind === 'agent') entry = { kind, id, text, blocks: blocks.filter((block) => block.type !== 'text'), messageId };
  else if (kind === 'thought') entry = { kind, id, text };
  else entry = { kind, id, turnId: 'replay', content: blocks };
  if (index !== undefined) {
    state.entries[index] = entry;
    return;
  }
  indexMessage(state, key, state.entries.length);
  state.entries.push(entry);
}

// ---------------------------------------------------------------- tool calls

/** A tool call with the protocol's defaults. */
export function newTool(toolCallId: string, id: string): ToolCallEntry {
  return { kind: 'tool', id, toolCallId, title: '', toolKind: 'other', status: 'pending', content: [], locations: [] };
}

/**
 * The fields an update set (see `ToolCallFields`): absent stay, null resets, values replace.
 * A call waiting for the person keeps that status until the answer.
 */
export function applyToolFields(entry: ToolCallEntry, fields: ToolCallFields, metaPatch: boolean): ToolCallEntry {
  const next: ToolCallEntry = { ...entry };
  if ('title' in fields) next.title = fields.title ?? '';
  if ('toolKind' in fields) next.toolKind = fields.toolKind ?? 'other';
  if ('status' in fields && entry.status !== 'awaiting_permission') next.status = fields.status ?? 'pending';
  if ('content' in fields) next.content = fields.content ?? [];
  if ('locations' in fields) next.locations = fields.locations ?? [];
  if ('rawInput' in fields) setOrDelete(next, 'rawInput', fields.rawInput);
  if ('rawOutput' in fields) setOrDelete(next, 'rawOutput', fields.rawOutput);
  if ('name' in fields) setOrDelete(next, 'name', fields.name);
  if ('capabilities' in fields) setOrDelete(next, 'capabilities', fields.capabilities);
  if ('meta' in fields) setOrDelete(next, 'meta', metaPatch ? patchMeta(entry.meta, fields.meta) : fields.meta);
  return next;
}

function setOrDelete<K extends keyof ToolCallEntry>(entry: ToolCallEntry, key: K, value: ToolCallEntry[K] | null | undefined): void {
  if (value === null || value === undefined) delete entry[key];
  else entry[key] = value;
}

/** `_meta` patch rule: null clears, an object patches by top-level key (null-valued keys removed). */
function patchMeta(current: unknown, patch: unknown): unknown {
  if (patch === null) return undefined;
  if (!isObject(patch)) return current;
  // Spread keeps the current keys' order; a key patched to null is then left out.
  const entries = Object.entries({ ...(isObject(current) ? current : {}), ...patch }).filter(([key]) => patch[key] !== null);
  return entries.length ? Object.fromEntries(entries) : undefined;
}

// ---------------------------------------------------------------- plans

/**
 * A plan with an id replaces the plan of that id wherever it is in the transcript; a plan
 * without one (ACP v1: one plan per session) is the turn's plan, updated in place. `plan` is the
 * latest plan either way.
 */
export function replacePlan(state: SessionState, planId: string | undefined, items: PlanItem[], seq: number): void {
  const entries: PlanEntryItem[] = items.map(({ content, priority, status, raw }) => ({ content, priority, status, raw }));
  state.plan = entries;
  const index = planId === undefined ? lastPlanInTurn(state) : (state.planIndex?.[planId] ?? -1);
  if (isHole(state.entries, index)) return;
  if (index !== -1 && state.entries[index]?.kind === 'plan') {
    state.entries[index] = { kind: 'plan', id: state.entries[index].id, entries };
    return;
  }
  if (planId !== undefined) state.planIndex = { ...state.planIndex, [planId]: state.entries.length };
  state.entries.push({ kind: 'plan', id: entryId(state, seq), entries });
}

function lastPlanInTurn(state: SessionState): number {
  for (let i = state.entries.length - 1; i >= 0; i--) {
    const entry = state.entries[i];
    // Not loaded on this page: it may be the plan, so nothing here may replace it.
    if (entry === undefined) return i;
    if (entry.kind === 'plan') return i;
    if (entry.kind === 'user' || entry.kind === 'stop') return -1;
  }
  return -1;
}

// ---------------------------------------------------------------- the agent's state

const KNOWN_STATES = new Set(['running', 'requires_action', 'idle']);

type StateEvent = EventBase & Extract<AgentEventBody, { kind: 'session.state' }>;

export function applySessionState(state: SessionState, event: StateEvent, helpers: FoldHelpers): void {
  if (Array.isArray(event.background)) state.background = event.background;
  else if (event.background === null || !KNOWN_STATES.has(event.state)) delete state.background;
  if (event.state === 'idle') {
    // A repeated or resume snapshot is not a new completion; nor is an idle for a turn the app
    // already ended (the agent answered a cancel after the grace period).
    if (!event.turnEnded || !state.currentTurnId) {
      if (!state.currentTurnId) state.status = helpers.recompute(state);
      return;
    }
    // The same transition as `turn.ended`; a sign-in asked for reads as a prompt's would.
    const authRequired = event.error?.code === AUTH_REQUIRED_CODE;
    const stopReason = authRequired ? 'auth_required' : (event.stopReason ?? 'end_turn');
    const error = authRequired ? AUTH_RETRY_NOTE : event.error ? String(event.error.message ?? `error ${String(event.error.code)}`) : undefined;
    const usage = event.usage ?? null;
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
