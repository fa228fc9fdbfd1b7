import { describe, expect, it } from 'vitest';
import type { SessionEvent, SessionEventBody } from './events';
import { reduceSession } from './reducer';
import type { SessionState, ToolCallEntry } from './state';
import { decodeV1Update } from '../../src-main/acp/decode/v1Update';

function numbered(bodies: SessionEventBody[], from: number): SessionEvent[] {
  return bodies.map((body, i) => ({ ...body, sessionId: 's', seq: from + i, ts: from + i }) as SessionEvent);
}

/** A session of 2,000 turns, each a question, a reply and an edit: 2,000 tool calls. */
function longSession(): SessionState {
  const bodies: SessionEventBody[] = [
    { kind: 'session.created', agentId: 'a', agentName: 'A', cwd: '/w' },
    { kind: 'session.connected', acpSessionId: 'x', how: 'new' },
  ];
  for (let turn = 0; turn < 2000; turn++) {
    bodies.push(
      { kind: 'turn.started', turnId: `t${turn}`, prompt: [{ type: 'text', text: `question ${turn}` }] },
      decodeV1Update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `reply ${turn}` } }),
      decodeV1Update({ sessionUpdate: 'tool_call', toolCallId: `c${turn}`, title: `Edit ${turn}`, kind: 'edit', status: 'completed' }),
      { kind: 'turn.ended', turnId: `t${turn}`, stopReason: 'end_turn' },
    );
  }
  return reduceSession(undefined, numbered(bodies, 1));
}

/** The state with its tool index counted each time it is copied (a spread lists its keys). */
function counted(state: SessionState): { state: SessionState; copies: () => number } {
  let copies = 0;
  const toolIndex = new Proxy(state.toolIndex, {
    ownKeys(target) {
      copies++;
      return Reflect.ownKeys(target);
    },
  });
  return { state: { ...state, toolIndex }, copies: () => copies };
}

describe('a batch copies the tool-call index only when it adds a tool call (issue 23)', () => {
  // Every batch copied the index: 5.6 ms for each chunk streamed into a session of 50,000 entries
  // (12,500 tool calls), in main and in the page alike.
  it('a streamed chunk copies nothing and shares the index', () => {
    const { state, copies } = counted(longSession());
    const after = reduceSession(
      state,
      numbered(
        [
          { kind: 'turn.started', turnId: 'tn', prompt: [{ type: 'text', text: 'more' }] },
          decodeV1Update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'streamed' } }),
        ],
        state.lastSeq + 1,
      ),
    );
    expect(copies()).toBe(0);
    expect(after.toolIndex).toBe(state.toolIndex);
    expect(after.entries.at(-1)).toMatchObject({ kind: 'agent' });
  });

  it('new tool calls are indexed in one copy, never in the state the batch started from', () => {
    const { state, copies } = counted(longSession());
    const batch = numbered(
      [
        { kind: 'turn.started', turnId: 'tn', prompt: [{ type: 'text', text: 'more' }] },
        decodeV1Update({ sessionUpdate: 'tool_call', toolCallId: 'n1', title: 'Read', kind: 'read', status: 'pending' }),
        { kind: 'tool.contentAppended', toolCallId: 'n2', content: { type: 'content', content: { type: 'text', text: 'out' } } },
        {
          kind: 'permission.requested',
          requestId: 'r1',
          toolCallId: 'n3',
          tool: { title: 'Run' },
          options: [{ optionId: 'ok', name: 'OK', kind: 'allow_once' }],
        },
        decodeV1Update({ sessionUpdate: 'tool_call_update', toolCallId: 'c5', status: 'failed' }),
      ],
      state.lastSeq + 1,
    );
    const after = reduceSession(state, batch);
    expect(copies()).toBe(1);
    for (const id of ['n1', 'n2', 'n3']) {
      expect(after.entries[after.toolIndex[id]]).toMatchObject({ kind: 'tool', toolCallId: id });
      expect(state.toolIndex[id]).toBeUndefined();
    }
    expect((after.entries[after.toolIndex.c5] as ToolCallEntry).status).toBe('failed');
    expect((state.entries[state.toolIndex.c5] as ToolCallEntry).status).toBe('completed');
    // The next batch starts from the new state and copies again (never writes into `after`).
    const next = reduceSession(
      after,
      numbered([decodeV1Update({ sessionUpdate: 'tool_call', toolCallId: 'n4', title: 'Grep', kind: 'search', status: 'pending' })], after.lastSeq + 1),
    );
    expect(next.toolIndex.n4).toBe(next.entries.length - 1);
    expect(after.toolIndex.n4).toBeUndefined();
  });
});
