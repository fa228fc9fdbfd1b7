import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import type { SessionEvent } from '../../src-shared/session/events';
import type { SessionState } from '../../src-shared/session/state';
import { createAppliedEvents } from './appliedEvents';
import { createFrameQueue } from './frameQueue';
import { createSessionSync } from './sessionSync';

const chunk = (sessionId: string, seq: number): SessionEvent => ({
  kind: 'message.chunk',
  role: 'agent',
  content: { type: 'text', text: `${seq} ` },
  sessionId,
  seq,
  ts: seq,
});
const created = (sessionId: string): SessionEvent => ({ kind: 'session.created', agentId: 'a', agentName: 'A', cwd: '/w', sessionId, seq: 1, ts: 1 });

describe('batches that arrive while the page is busy are applied together on the next frame', () => {
  it('three batches of one session: one store update, in order; another session apart', async () => {
    const store = createStore<{ sessions: Record<string, SessionState> }>()(() => ({ sessions: {} }));
    const sync = createSessionSync({
      store,
      applied: createAppliedEvents(),
      onError: (e) => {
        throw e;
      },
      fetchEvents: async (id) => [created(id)],
    });
    await sync.load('a');
    await sync.load('b');
    let updates = 0;
    store.subscribe(() => updates++);
    const frames: (() => void)[] = [];
    const queue = createFrameQueue(sync.apply, (flush) => frames.push(flush));
    queue.push('a', [chunk('a', 2), chunk('a', 3)]);
    queue.push('b', [chunk('b', 2)]);
    queue.push('a', [chunk('a', 4)]);
    queue.push('a', [chunk('a', 5), chunk('a', 6)]);
    expect(updates).toBe(0);
    expect(frames).toHaveLength(1);
    frames.shift()!();
    // One update per session with news, not one per batch.
    expect(updates).toBe(2);
    const text = (id: string) => {
      const entry = store.getState().sessions[id]?.entries.at(-1);
      return entry?.kind === 'agent' ? entry.text : '';
    };
    expect(text('a')).toBe('2 3 4 5 6 ');
    expect(text('b')).toBe('2 ');
    queue.push('a', [chunk('a', 7)]);
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(text('a')).toBe('2 3 4 5 6 7 ');
  });

  it("streamed content goes at the stream's pace; a turn's end or a permission request is urgent (applied at the next frame)", () => {
    const scheduled: { flush: () => void; pace: () => number }[] = [];
    const applied: SessionEvent[][] = [];
    const queue = createFrameQueue(
      (_id, events) => applied.push(events),
      (flush, pace) => scheduled.push({ flush, pace }),
    );
    queue.push('a', [chunk('a', 2)]);
    queue.push('a', [chunk('a', 3)]);
    expect(scheduled).toHaveLength(1);
    expect(scheduled[0].pace()).toBe(50);
    queue.push('a', [{ kind: 'turn.ended', turnId: 't', stopReason: 'end_turn', sessionId: 'a', seq: 4, ts: 4 }]);
    expect(scheduled[0].pace()).toBe(0);
    scheduled.shift()!.flush();
    expect(applied).toHaveLength(1);
    expect(applied[0].map((event) => event.seq)).toEqual([2, 3, 4]);
    // After a flush the next run starts as streamed content again.
    queue.push('a', [chunk('a', 5)]);
    expect(scheduled[0].pace()).toBe(50);
  });

  it('a flood (8,000 characters or more in one application) is shown every 100 ms until it slows down', () => {
    const scheduled: { flush: () => void; pace: () => number }[] = [];
    const queue = createFrameQueue(
      () => {},
      (flush, pace) => scheduled.push({ flush, pace }),
    );
    const text = (seq: number, size: number): SessionEvent => ({
      kind: 'message.chunk',
      role: 'agent',
      content: { type: 'text', text: 'x'.repeat(size) },
      sessionId: 'a',
      seq,
      ts: seq,
    });
    queue.push('a', [text(2, 5_000), text(3, 3_000)]);
    expect(scheduled[0].pace()).toBe(50);
    scheduled.shift()!.flush();
    queue.push('a', [text(4, 40)]);
    expect(scheduled[0].pace()).toBe(100);
    // Urgent news still goes at the next frame during a flood.
    queue.push('a', [{ kind: 'turn.ended', turnId: 't', stopReason: 'end_turn', sessionId: 'a', seq: 5, ts: 5 }]);
    expect(scheduled[0].pace()).toBe(0);
    scheduled.shift()!.flush();
    // That application carried 40 characters: the stream is back to 20 times a second.
    queue.push('a', [text(6, 40)]);
    expect(scheduled[0].pace()).toBe(50);
  });
});
