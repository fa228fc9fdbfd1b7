import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src-shared/session/events';
import { reduceSession } from '../../src-shared/session/reducer';
import { decodeV1Update } from '../acp/decode/v1Update';
import { coalesceChunks } from './coalesceChunks';

let seq = 0;
const at = <T extends object>(body: T) => ({ ...body, sessionId: 's1', seq: ++seq, ts: seq }) as unknown as SessionEvent;
const chunk = (text: string, sessionUpdate = 'agent_message_chunk', extra: Record<string, unknown> = {}) =>
  at(decodeV1Update({ sessionUpdate, content: { type: 'text', text }, ...extra }));

describe('coalesceChunks: one append per frame on the IPC', () => {
  it('a burst of chunks becomes two events with the same folded state, entry ids and lastSeq', () => {
    seq = 0;
    const events = [
      at({ kind: 'session.created', agentId: 'a', agentName: 'A', cwd: '/w' }),
      at({ kind: 'turn.started', turnId: 't1', prompt: [{ type: 'text', text: 'hi' }] }),
      ...Array.from({ length: 500 }, (_, i) => chunk(`c${i} `)),
      chunk('thinking', 'agent_thought_chunk'),
      chunk('more', 'agent_thought_chunk'),
      chunk('after thought '),
      ...Array.from({ length: 10 }, (_, i) => chunk(`m${i}`, 'agent_message_chunk', { messageId: 'm2' })),
      chunk('with meta', 'agent_message_chunk', { _meta: { x: 1 } }),
      at({ kind: 'turn.ended', turnId: 't1', stopReason: 'end_turn' }),
    ];
    const sent = coalesceChunks(events);
    expect(sent.length).toBeLessThan(15);
    // Everything else in the same order, and each event's seq increasing.
    expect(sent.map((e) => e.seq)).toEqual([...sent.map((e) => e.seq)].sort((a, b) => a - b));
    expect(sent.filter((e) => e.kind !== 'message.chunk')).toEqual(events.filter((e) => e.kind !== 'message.chunk'));
    expect(reduceSession(undefined, sent)).toEqual(reduceSession(undefined, events));
    expect(sent.at(-1)!.seq).toBe(events.at(-1)!.seq);
  });

  it('leaves the input alone (the log records every chunk as it came)', () => {
    seq = 0;
    const events = Array.from({ length: 5 }, (_, i) => chunk(`x${i}`));
    const copy = structuredClone(events);
    coalesceChunks(events);
    expect(events).toEqual(copy);
  });
});
