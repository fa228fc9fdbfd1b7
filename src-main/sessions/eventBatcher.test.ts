import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionEvent } from '../../src-shared/session/events';
import { EventBatcher } from './eventBatcher';

const event = (sessionId: string, seq: number): SessionEvent => ({ kind: 'notice', level: 'info', message: `m${seq}`, sessionId, seq, ts: 0 }) as SessionEvent;

describe('EventBatcher', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('flushes at most once per 16 ms frame, in order', () => {
    const flushes: { sessionId: string; seqs: number[]; at: number }[] = [];
    const batcher = new EventBatcher((sessionId, events) => flushes.push({ sessionId, seqs: events.map((e) => e.seq), at: Date.now() }));
    const start = Date.now();
    for (let seq = 1; seq <= 10_000; seq++) {
      batcher.push(event('s1', seq));
      if (seq % 1000 === 0) vi.advanceTimersByTime(4); // 10,000 events over 40 ms
    }
    vi.advanceTimersByTime(16);
    expect(flushes.length).toBeGreaterThanOrEqual(2);
    expect(flushes.length).toBeLessThanOrEqual(4);
    expect(flushes.flatMap((f) => f.seqs)).toEqual(Array.from({ length: 10_000 }, (_, i) => i + 1));
    for (let i = 1; i < flushes.length; i++) expect(flushes[i].at - flushes[i - 1].at).toBeGreaterThanOrEqual(16);
    expect(flushes[0].at - start).toBe(16);
  });

  it('nothing is sent before the frame ends; nothing is left after it', () => {
    const flushes: number[][] = [];
    const batcher = new EventBatcher((_, events) => flushes.push(events.map((e) => e.seq)));
    batcher.push(event('s1', 1));
    batcher.push(event('s1', 2));
    vi.advanceTimersByTime(15);
    expect(flushes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(flushes).toEqual([[1, 2]]);
    vi.advanceTimersByTime(100);
    expect(flushes).toEqual([[1, 2]]);
  });

  it('keeps sessions apart, each in order', () => {
    const bySession = new Map<string, number[]>();
    const batcher = new EventBatcher((sessionId, events) => bySession.set(sessionId, [...(bySession.get(sessionId) ?? []), ...events.map((e) => e.seq)]));
    batcher.push(event('a', 1));
    batcher.push(event('b', 1));
    batcher.push(event('a', 2));
    batcher.push(event('b', 2));
    vi.advanceTimersByTime(16);
    expect(bySession.get('a')).toEqual([1, 2]);
    expect(bySession.get('b')).toEqual([1, 2]);
  });

  it('flush() sends immediately and cancels the pending timer', () => {
    const flushes: number[][] = [];
    const batcher = new EventBatcher((_, events) => flushes.push(events.map((e) => e.seq)));
    batcher.push(event('s1', 1));
    batcher.flush();
    expect(flushes).toEqual([[1]]);
    expect(vi.getTimerCount()).toBe(0);
    batcher.push(event('s1', 2));
    vi.advanceTimersByTime(16);
    expect(flushes).toEqual([[1], [2]]);
  });
});
