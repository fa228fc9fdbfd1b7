import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgentManager } from '../agents/agentManager';
import { writeLongLog } from '../testing/longLog';
import { DEFAULT_YOUNG_GROWTH, QuietCompaction } from './quietCompaction';
import { SessionManager } from './sessionManager';

/** A compaction whose collections and young-generation settings are counted, on fake timers. */
function counted(options: { heapGrowth?: number } = {}) {
  const growth: number[] = [];
  let collections = 0;
  let heap = 100;
  const compaction = new QuietCompaction({
    quietMs: 1000,
    maxHoldMs: 5000,
    minGrowthBytes: 10,
    collect: () => {
      collections++;
      heap = 100;
    },
    youngGrowth: (factor) => growth.push(factor),
    heapUsed: () => heap,
    now: () => Date.now(),
  });
  return {
    compaction,
    growth,
    collections: () => collections,
    /** What reading a session back leaves in the heap. */
    allocate: () => (heap += options.heapGrowth ?? 50),
  };
}

describe('QuietCompaction: what reading sessions back leaves behind is collected once the host is quiet', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('three sessions read back at once: one collection, a quiet second after the last one, and none before', () => {
    const { compaction, collections, allocate } = counted();
    const reads = [compaction.read(), compaction.read(), compaction.read()];
    allocate();
    reads[0]();
    vi.advanceTimersByTime(900);
    reads[1]();
    reads[2]();
    vi.advanceTimersByTime(900);
    expect(collections()).toBe(0);
    vi.advanceTimersByTime(200);
    expect(collections()).toBe(1);
    vi.advanceTimersByTime(60_000);
    expect(collections()).toBe(1);
  });

  it('never while the host works: each event batch or request pushes it back, and it runs once they stop', () => {
    const { compaction, collections, allocate } = counted();
    compaction.read()();
    allocate();
    for (let i = 0; i < 20; i++) {
      vi.advanceTimersByTime(500);
      compaction.busy();
    }
    expect(collections()).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(collections()).toBe(1);
  });

  it('the young generation does not grow from the first read until the collection, then grows as V8 likes again', () => {
    const { compaction, growth, collections, allocate } = counted();
    const first = compaction.read();
    const second = compaction.read();
    expect(growth).toEqual([1]);
    allocate();
    first();
    second();
    vi.advanceTimersByTime(999);
    expect(growth).toEqual([1]);
    vi.advanceTimersByTime(1);
    expect(collections()).toBe(1);
    expect(growth).toEqual([1, DEFAULT_YOUNG_GROWTH]);
  });

  it('a host that stays busy after a read (an agent streaming) gets its young generation back after maxHoldMs, and the collection still waits for quiet', () => {
    const { compaction, growth, collections, allocate } = counted();
    compaction.read()();
    allocate();
    for (let i = 0; i < 12; i++) {
      vi.advanceTimersByTime(500);
      compaction.busy();
    }
    expect(growth).toEqual([1, DEFAULT_YOUNG_GROWTH]);
    expect(collections()).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(collections()).toBe(1);
    expect(growth).toEqual([1, DEFAULT_YOUNG_GROWTH]);
  });

  it('a read that left little garbage is not worth a pause: no collection, the young generation back', () => {
    const { compaction, growth, collections, allocate } = counted({ heapGrowth: 5 });
    compaction.read()();
    allocate();
    vi.advanceTimersByTime(10_000);
    expect(collections()).toBe(0);
    expect(growth).toEqual([1, DEFAULT_YOUNG_GROWTH]);
  });

  it('a read still running when the timer fires is waited for', () => {
    const { compaction, collections, allocate } = counted();
    compaction.read()();
    const slow = compaction.read();
    allocate();
    vi.advanceTimersByTime(5000);
    expect(collections()).toBe(0);
    slow();
    vi.advanceTimersByTime(1000);
    expect(collections()).toBe(1);
  });

  it('the saved tabs are back (settle): collected at once, not a quiet second later, and once', () => {
    const { compaction, growth, collections, allocate } = counted();
    compaction.read()();
    allocate();
    compaction.settle();
    expect(collections()).toBe(1);
    // Held through the page's first requests, until the host is quiet.
    expect(growth).toEqual([1]);
    compaction.busy();
    vi.advanceTimersByTime(999);
    expect(growth).toEqual([1]);
    vi.advanceTimersByTime(1);
    expect(growth).toEqual([1, DEFAULT_YOUNG_GROWTH]);
    vi.advanceTimersByTime(10_000);
    expect(collections()).toBe(1);
  });

  it('settle while a session is still being read (opened from history meanwhile): that read collects once it is quiet', () => {
    const { compaction, collections, allocate } = counted();
    const reading = compaction.read();
    allocate();
    compaction.settle();
    expect(collections()).toBe(0);
    reading();
    vi.advanceTimersByTime(1000);
    expect(collections()).toBe(1);
  });

  it('disposed (the host stops): nothing runs later, and the young generation is given back', () => {
    const { compaction, growth, collections, allocate } = counted();
    compaction.read()();
    allocate();
    compaction.dispose();
    vi.advanceTimersByTime(10_000);
    expect(collections()).toBe(0);
    expect(growth).toEqual([1, DEFAULT_YOUNG_GROWTH]);
  });
});

describe('SessionManager reads sessions back with the young generation held, then collects once', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'acp-compaction-'));
    mkdirSync(join(dataDir, 'sessions'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('restoring three long sessions holds the growth during every fold and runs one collection after the last', async () => {
    const growth: number[] = [];
    let collections = 0;
    const compaction = new QuietCompaction({
      quietMs: 50,
      minGrowthBytes: 0,
      // V8's own collections during the folds may leave less in use than at the start: the heap is not what this test is about.
      heapUsed: () => collections,
      collect: () => collections++,
      youngGrowth: (factor) => growth.push(factor),
    });
    const ids = ['s_a', 's_b', 's_c'];
    for (const id of ids) writeLongLog(join(dataDir, 'sessions', `${id}.jsonl`), 400, id);
    const sessions = new SessionManager({
      dataDir,
      agents: { capabilities: () => null, find: () => undefined } as unknown as AgentManager,
      settings: () => ({}) as never,
      emit: () => {},
      onChange: () => {},
      compaction,
    });
    const restored = await Promise.all(ids.map((id) => sessions.restore(id)));
    expect(restored.map((session) => session?.fold().entries.length)).toEqual([400, 400, 400]);
    // Held from the first fold; not given back between the three.
    expect(growth).toEqual([1]);
    expect(collections).toBe(0);
    await vi.waitFor(() => expect(collections).toBe(1), { timeout: 5000, interval: 20 });
    expect(growth).toEqual([1, DEFAULT_YOUNG_GROWTH]);
    // Opening them again reads nothing: nothing more to collect.
    await Promise.all(ids.map((id) => sessions.restore(id)));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(collections).toBe(1);
    await sessions.disposeAll();
  });
});
