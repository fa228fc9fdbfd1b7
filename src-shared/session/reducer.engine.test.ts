import { describe, expect, it } from 'vitest';
import type { SessionEvent, SessionEventBody } from './events';
import { reduceSession } from './reducer';
import type { ToolCallEntry } from './state';
import { decodeV1Update } from '../../src-main/acp/decode/v1Update';

/** Folds bodies into a state, numbering them like main does. */
function fold(bodies: SessionEventBody[]) {
  const events = bodies.map((body, i) => ({ ...body, sessionId: 's', seq: i + 1, ts: i }) as SessionEvent);
  return reduceSession(undefined, events);
}
const start: SessionEventBody[] = [
  { kind: 'session.created', agentId: 'a', agentName: 'A', cwd: '/w' },
  { kind: 'session.connected', acpSessionId: 'x', how: 'new' },
  { kind: 'turn.started', turnId: 't1', prompt: [{ type: 'text', text: 'go' }] },
];
const tool = (state: ReturnType<typeof fold>, id: string) => state.entries[state.toolIndex[id]] as ToolCallEntry;

describe('reducer: what the engine relies on', () => {
  it('tool calls left pending after a rejected permission are settled when the turn ends', () => {
    const state = fold([
      ...start,
      decodeV1Update({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Edit', kind: 'edit', status: 'pending' }),
      decodeV1Update({ sessionUpdate: 'tool_call', toolCallId: 'c2', title: 'Run', kind: 'execute', status: 'in_progress' }),
      { kind: 'permission.requested', requestId: 'r1', toolCallId: 'c1', tool: {}, options: [{ optionId: 'no', name: 'No', kind: 'reject_once' }] },
      { kind: 'permission.resolved', requestId: 'r1', optionId: 'no' },
      { kind: 'turn.ended', turnId: 't1', stopReason: 'end_turn' },
    ]);
    expect(tool(state, 'c1')).toMatchObject({ status: 'failed', permissionOutcome: { optionId: 'no', kind: 'reject_once', name: 'No' } });
    expect(tool(state, 'c2').status).toBe('canceled');
    expect(state.status).toBe('idle');
  });

  it('a cancelled turn cancels open tool calls; an agent exit fails them', () => {
    const open = decodeV1Update({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'T', status: 'pending' }) as SessionEventBody;
    expect(tool(fold([...start, open, { kind: 'turn.ended', turnId: 't1', stopReason: 'cancelled' }]), 'c1').status).toBe('canceled');
    expect(tool(fold([...start, open, { kind: 'agent.exited', code: 1, signal: null, stderrTail: ['boom'] }]), 'c1').status).toBe('failed');
  });

  it('a remembered answer is visible on the tool call', () => {
    const state = fold([
      ...start,
      {
        kind: 'permission.requested',
        requestId: 'r1',
        toolCallId: 'g1',
        tool: { title: 'Ghost', toolKind: 'execute' },
        options: [{ optionId: 'y', name: 'Always', kind: 'allow_always' }],
      },
      { kind: 'permission.resolved', requestId: 'r1', optionId: 'y', reason: 'remembered' },
    ]);
    expect(tool(state, 'g1')).toMatchObject({ synthetic: true, status: 'pending', permissionOutcome: { reason: 'remembered', kind: 'allow_always' } });
    expect(state.permissions).toEqual([]);
  });

  it('a request the app could not accept becomes a generic entry with its raw JSON', () => {
    const state = fold([...start, { kind: 'acp.rejected', method: 'elicitation/create', params: { mode: 'x_mode' }, error: { code: -32602, message: 'no' } }]);
    expect(state.entries.at(-1)).toMatchObject({
      kind: 'unknown',
      raw: { method: 'elicitation/create', params: { mode: 'x_mode' }, answer: { code: -32602 } },
    });
  });

  it('session_info_update keeps updatedAt and _meta; the turn keeps its usage', () => {
    const state = fold([
      ...start,
      decodeV1Update({ sessionUpdate: 'session_info_update', title: 'T', updatedAt: '2026-01-01T00:00:00Z', _meta: { k: 1 } }),
      decodeV1Update({ sessionUpdate: 'session_info_update', updatedAt: null }),
      { kind: 'turn.ended', turnId: 't1', stopReason: 'end_turn', usage: { totalTokens: 5 } },
    ]);
    expect(state.title).toBe('T');
    expect(state.info).toEqual({ updatedAt: null, meta: { k: 1 } });
    expect(state.entries.at(-1)).toMatchObject({ kind: 'stop', usage: { totalTokens: 5 } });
  });
});

describe("a tool call's _meta patched by key (metaPatch)", () => {
  it('keeps the keys the patch does not name, replaces those it names, removes those it sets to null', () => {
    const state = fold([
      { kind: 'tool.updated', toolCallId: 't1', fields: { title: 'Run', meta: { a: 1, b: 2, c: 3 } } },
      { kind: 'tool.updated', toolCallId: 't1', fields: { meta: { b: 'two', c: null, d: 4 } }, metaPatch: true },
    ]);
    const tool = state.entries[state.toolIndex.t1] as ToolCallEntry;
    expect(JSON.stringify(tool.meta)).toBe(JSON.stringify({ a: 1, b: 'two', d: 4 }));
    const cleared = fold([
      { kind: 'tool.updated', toolCallId: 't1', fields: { title: 'Run', meta: { a: 1 } } },
      { kind: 'tool.updated', toolCallId: 't1', fields: { meta: { a: null } }, metaPatch: true },
    ]);
    expect((cleared.entries[cleared.toolIndex.t1] as ToolCallEntry).meta).toBeUndefined();
  });
});
