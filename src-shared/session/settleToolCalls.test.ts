import { describe, expect, it } from 'vitest';
import type { SessionEvent, SessionEventBody } from './events';
import { reduceSession } from './reducer';
import type { SessionState } from './state';
import { decodeV1Update } from '../../src-main/acp/decode/v1Update';

let seq = 0;
function apply(state: SessionState | undefined, ...bodies: SessionEventBody[]): SessionState {
  return reduceSession(
    state,
    bodies.map((body) => ({ ...body, sessionId: 's', seq: ++seq, ts: seq }) as SessionEvent),
  );
}
const tool = (toolCallId: string, status: string, update = false): SessionEventBody =>
  decodeV1Update({ sessionUpdate: update ? 'tool_call_update' : 'tool_call', toolCallId, title: toolCallId, kind: 'read', status });
const statusOf = (state: SessionState, toolCallId: string) => (state.entries[state.toolIndex[toolCallId]] as { status: string }).status;

describe('settling open tool calls at the end of a turn (watermark)', () => {
  it('settles what is open in this turn, leaves finished calls alone, and catches old calls re-opened later', () => {
    seq = 0;
    let state = apply(undefined, { kind: 'session.created', agentId: 'a', agentName: 'A', cwd: '/' });
    state = apply(state, { kind: 'turn.started', turnId: 't1', prompt: [] }, tool('old', 'in_progress'), tool('done', 'completed'), {
      kind: 'turn.ended',
      turnId: 't1',
      stopReason: 'end_turn',
    });
    expect([statusOf(state, 'old'), statusOf(state, 'done')]).toEqual(['canceled', 'completed']);
    expect(state.openToolFrom).toBe(state.entries.length - 1); // settled before the stop entry was added
    // A later turn: a new open call, and an update that re-opens the old one.
    state = apply(state, { kind: 'turn.started', turnId: 't2', prompt: [] }, tool('new', 'pending'), tool('old', 'in_progress', true));
    expect(statusOf(state, 'old')).toBe('in_progress');
    state = apply(state, { kind: 'turn.ended', turnId: 't2', stopReason: 'cancelled' });
    expect([statusOf(state, 'old'), statusOf(state, 'new'), statusOf(state, 'done')]).toEqual(['canceled', 'canceled', 'completed']);
  });

  it('settles a permission-only call when the agent exits', () => {
    seq = 0;
    let state = apply(
      undefined,
      { kind: 'session.created', agentId: 'a', agentName: 'A', cwd: '/' },
      { kind: 'turn.started', turnId: 't1', prompt: [] },
      { kind: 'turn.ended', turnId: 't1', stopReason: 'end_turn' },
    );
    state = apply(
      state,
      { kind: 'turn.started', turnId: 't2', prompt: [] },
      { kind: 'permission.requested', requestId: 'r', toolCallId: 'ghost', tool: { title: 'Run' }, options: [] },
    );
    expect(statusOf(state, 'ghost')).toBe('awaiting_permission');
    state = apply(state, { kind: 'agent.exited', code: 1, signal: null, stderrTail: [] });
    expect(statusOf(state, 'ghost')).toBe('failed');
  });
});
