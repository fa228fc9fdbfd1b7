import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionEvent, SessionEventBody } from '../../../src-shared/session/events';
import { reduceSession } from '../../../src-shared/session/reducer';
import type { SessionState } from '../../../src-shared/session/state';
import { coalesceChunks } from '../../sessions/coalesceChunks';
import { EventLog, readEventLog } from '../../store/eventLog';
import type { Dialect } from './dialect';
import { v1 } from './v1';
import { v2 } from './v2';

import type { RawObject } from '../../../src-shared/session/raw';

/** One scripted step: an app event, a wire `session/update`, a permission request, or the prompt's answer. */
type Step = { app: SessionEventBody } | { update: RawObject } | { permission: RawObject; requestId: string } | { promptResult: unknown; turnId: string };

/** What the session layer does with a dialect, minus the process: the events it records. */
function record(dialect: Dialect, steps: Step[]): SessionEvent[] {
  const decoder = dialect.createDecoder();
  const bodies: SessionEventBody[] = [];
  for (const step of steps) {
    if ('app' in step) bodies.push(step.app);
    else if ('update' in step) bodies.push(...decoder.decode('acp-1', step.update));
    else if ('permission' in step) {
      const decoded = dialect.decodePermissionRequest(step.permission, step.requestId);
      bodies.push({ kind: 'permission.requested', requestId: step.requestId, ...decoded });
    } else {
      const outcome = dialect.decodePromptResult(step.promptResult);
      // v1 ends the turn with the prompt's answer; in v2 the answer only accepts the message.
      if (outcome.kind === 'ended')
        bodies.push({ kind: 'turn.ended', turnId: step.turnId, stopReason: outcome.stopReason, ...(outcome.usage ? { usage: outcome.usage } : {}) });
    }
  }
  return bodies.map((body, i) => ({ ...body, sessionId: 's1', seq: i + 1, ts: 1000 }) as SessionEvent);
}

/**
 * What a person sees: entry ids (`session:seq`) differ because v2 sends more events (state
 * snapshots), and the reducer's lookup indexes and the protocol version are bookkeeping.
 */
function visible(state: SessionState): unknown {
  const { lastSeq: _s, lastActivity: _a, toolIndex: _t, openToolFrom: _o, messageIndex: _m, planIndex: _p, protocolVersion: _v, ...rest } = state;
  return { ...rest, entries: state.entries.map(({ id: _id, ...entry }) => entry) };
}

const prompt = [{ type: 'text' as const, text: 'Fix the bug' }];
const options = [
  { optionId: 'ok', name: 'Allow', kind: 'allow_once' },
  { optionId: 'no', name: 'Reject', kind: 'reject_once' },
];

const start = (protocolVersion: number): Step[] => [
  { app: { kind: 'session.created', agentId: 'a', agentName: 'Agent', cwd: '/w' } },
  { app: { kind: 'session.connected', acpSessionId: 'acp-1', how: 'new', protocolVersion } },
  { app: { kind: 'turn.started', turnId: 't1', prompt } },
];

const V1_SCRIPT: Step[] = [
  ...start(1),
  { update: { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'Looking at it' } } },
  { update: { sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text: 'I will ' } } },
  { update: { sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text: 'fix it.' } } },
  { update: { sessionUpdate: 'plan', entries: [{ content: 'Edit a.txt', priority: 'high', status: 'in_progress' }] } },
  { update: { sessionUpdate: 'tool_call', toolCallId: 'tc1', title: 'Edit a.txt', kind: 'edit', status: 'pending', rawInput: { path: '/w/a.txt' } } },
  { permission: { sessionId: 'acp-1', toolCall: { toolCallId: 'tc1', title: 'Edit a.txt' }, options }, requestId: 'r1' },
  { app: { kind: 'permission.resolved', requestId: 'r1', optionId: 'ok' } },
  { update: { sessionUpdate: 'tool_call_update', toolCallId: 'tc1', status: 'in_progress' } },
  {
    update: {
      sessionUpdate: 'tool_call_update',
      toolCallId: 'tc1',
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: 'done' } }],
    },
  },
  { update: { sessionUpdate: 'plan', entries: [{ content: 'Edit a.txt', priority: 'high', status: 'completed' }] } },
  { update: { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'test', description: 'Run tests', input: { hint: 'which' } }] } },
  { update: { sessionUpdate: 'usage_update', used: 1200, size: 200000 } },
  { update: { sessionUpdate: 'agent_message_chunk', messageId: 'm2', content: { type: 'text', text: 'Done.' } } },
  { promptResult: { stopReason: 'end_turn' }, turnId: 't1' },
];

const V2_SCRIPT: Step[] = [
  ...start(2),
  { update: { sessionUpdate: 'state_update', state: 'running' } },
  { update: { sessionUpdate: 'agent_thought_chunk', messageId: 'th1', content: { type: 'text', text: 'Looking at it' } } },
  { update: { sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text: 'I will ' } } },
  { update: { sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text: 'fix it.' } } },
  {
    update: {
      sessionUpdate: 'plan_update',
      plan: { type: 'items', planId: 'p1', entries: [{ content: 'Edit a.txt', priority: 'high', status: 'in_progress' }] },
    },
  },
  { update: { sessionUpdate: 'tool_call_update', toolCallId: 'tc1', title: 'Edit a.txt', kind: 'edit', status: 'pending', rawInput: { path: '/w/a.txt' } } },
  { update: { sessionUpdate: 'state_update', state: 'requires_action' } },
  {
    permission: { sessionId: 'acp-1', title: 'Edit a.txt', subject: { type: 'tool_call', toolCall: { toolCallId: 'tc1', title: 'Edit a.txt' } }, options },
    requestId: 'r1',
  },
  { app: { kind: 'permission.resolved', requestId: 'r1', optionId: 'ok' } },
  { update: { sessionUpdate: 'state_update', state: 'running' } },
  { update: { sessionUpdate: 'tool_call_update', toolCallId: 'tc1', status: 'in_progress' } },
  {
    update: {
      sessionUpdate: 'tool_call_update',
      toolCallId: 'tc1',
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: 'done' } }],
    },
  },
  {
    update: {
      sessionUpdate: 'plan_update',
      plan: { type: 'items', planId: 'p1', entries: [{ content: 'Edit a.txt', priority: 'high', status: 'completed' }] },
    },
  },
  {
    update: {
      sessionUpdate: 'available_commands_update',
      availableCommands: [{ type: 'command', name: 'test', description: 'Run tests', input: { type: 'text', hint: 'which' } }],
    },
  },
  { update: { sessionUpdate: 'usage_update', used: 1200, size: 200000 } },
  { update: { sessionUpdate: 'agent_message_chunk', messageId: 'm2', content: { type: 'text', text: 'Done.' } } },
  // The prompt's answer arrives at any point and ends nothing.
  { promptResult: { messageId: 'u1' }, turnId: 't1' },
  { update: { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' } },
  // Repeated snapshots are not new completions.
  { update: { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' } },
  { update: { sessionUpdate: 'state_update', state: 'idle' } },
];

describe('one internal model for v1 and v2', () => {
  it('the same conversation scripted in v1 and in v2 folds to the same session state', () => {
    const one = reduceSession(undefined, record(v1, V1_SCRIPT));
    const two = reduceSession(undefined, record(v2, V2_SCRIPT));
    expect(visible(two)).toEqual(visible(one));
    // And it is the conversation we meant, not two equal empty states.
    expect(one.entries.map((e) => e.kind)).toEqual(['user', 'thought', 'agent', 'plan', 'tool', 'agent', 'stop']);
    expect(one.status).toBe('idle');
    expect(one.entries.filter((e) => e.kind === 'stop')).toHaveLength(1);
    expect(two.protocolVersion).toBe(2);
  });

  it('folding event by event gives the same state as one batch (v2 turn end included)', () => {
    const events = record(v2, V2_SCRIPT);
    const stepwise = events.reduce<SessionState | undefined>((state, event) => reduceSession(state, [event]), undefined);
    expect(stepwise).toEqual(reduceSession(undefined, events));
  });

  it('v2 requires_action shows the session waiting for the person, running again after', () => {
    const events = record(v2, V2_SCRIPT);
    const at = (n: number) => reduceSession(undefined, events.slice(0, n)).status;
    const requires = events.findIndex((e) => e.kind === 'session.state' && e.state === 'requires_action');
    expect(at(requires + 1)).toBe('waiting');
    const resumed = events.findIndex((e, i) => i > requires && e.kind === 'session.state' && e.state === 'running');
    expect(at(resumed + 1)).toBe('running');
  });
});

/** Folded as the window folds them: in frame-sized batches, neighbouring text chunks merged. */
function live(events: SessionEvent[]): SessionState {
  let state: SessionState | undefined;
  for (let i = 0; i < events.length; i += 4) state = reduceSession(state, coalesceChunks(events.slice(i, i + 4)));
  return state!;
}

/** Written to a session log and folded from it, as opening the session later does. */
async function replayed(events: SessionEvent[]): Promise<SessionState> {
  const file = join(mkdtempSync(join(tmpdir(), 'acp-equivalence-')), 's1.jsonl');
  const log = new EventLog(file);
  log.append(events);
  log.close();
  const read = await readEventLog(file);
  expect(read.skipped).toBe(0);
  return reduceSession(undefined, read.events);
}

describe('one typed state for v1 and v2, live and replayed', () => {
  it('the same conversation in v1 and in v2 folds to deep-equal state live (batched, chunks merged) and replayed from the log', async () => {
    const one = record(v1, V1_SCRIPT);
    const two = record(v2, V2_SCRIPT);
    const whole = visible(reduceSession(undefined, one));
    for (const state of [live(one), live(two), await replayed(one), await replayed(two)]) expect(visible(state)).toEqual(whole);
    // Not a vacuous equality: the conversation is there, typed.
    const tool = reduceSession(undefined, two).entries.find((entry) => entry.kind === 'tool');
    expect(tool).toMatchObject({ toolCallId: 'tc1', title: 'Edit a.txt', toolKind: 'edit', status: 'completed', permissionOutcome: { optionId: 'ok' } });
  });
});

describe('turn end and background work (v2)', () => {
  it('a tool call listed as background work keeps running past the turn; others are settled as in v1', () => {
    const events = record(v2, [
      ...start(2),
      { update: { sessionUpdate: 'state_update', state: 'running' } },
      { update: { sessionUpdate: 'tool_call_update', toolCallId: 'bg', title: 'Watch', status: 'in_progress' } },
      { update: { sessionUpdate: 'tool_call_update', toolCallId: 'fg', title: 'Left open', status: 'in_progress' } },
      { update: { sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn', background: [{ type: 'tool_call', toolCallId: 'bg' }] } },
    ]);
    const state = reduceSession(undefined, events);
    const status = (id: string) => (state.entries[state.toolIndex[id]] as { status: string }).status;
    expect(status('bg')).toBe('in_progress');
    expect(status('fg')).toBe('canceled');
    expect(state.background).toEqual([{ type: 'tool_call', toolCallId: 'bg' }]);
  });

  it('an idle that arrives after the app already ended the turn (the agent ignored the cancel past the grace period) adds no second end', () => {
    const events = record(v2, [
      ...start(2),
      { update: { sessionUpdate: 'state_update', state: 'running' } },
      { app: { kind: 'turn.ended', turnId: 't1', stopReason: 'cancelled' } },
      { update: { sessionUpdate: 'state_update', state: 'idle', stopReason: 'cancelled' } },
    ]);
    const state = reduceSession(undefined, events);
    expect(state.entries.filter((entry) => entry.kind === 'stop')).toHaveLength(1);
    expect(state.status).toBe('idle');
  });
});
