import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import type { SessionEvent } from '../../src-shared/session/events';
import { reduceSession } from '../../src-shared/session/reducer';
import type { SessionState, ToolCallEntry } from '../../src-shared/session/state';
import { pickOf, rangeOf, windowOf, type EntryRange } from '../../src-shared/session/window';
import { createAppliedEvents, type AppliedHow } from './appliedEvents';
import { createSessionSync } from './sessionSync';

/** The log main keeps: one agent message chunk per seq after the creation event. */
const log: SessionEvent[] = [
  { kind: 'session.created', agentId: 'a', agentName: 'A', cwd: '/w', sessionId: 's', seq: 1, ts: 1 },
  ...Array.from({ length: 11 }, (_, i): SessionEvent => ({
    kind: 'message.chunk',
    role: 'agent',
    content: { type: 'text', text: `${i + 2} ` },
    sessionId: 's',
    seq: i + 2,
    ts: i + 2,
  })),
];
const range = (from: number, to: number) => log.filter((e) => e.seq >= from && e.seq <= to);

function setup() {
  const store = createStore<{ sessions: Record<string, SessionState> }>()(() => ({ sessions: {} }));
  const fetches: { afterSeq: number; resolve(events: SessionEvent[]): void }[] = [];
  const applied: { how: AppliedHow; seqs: number[] }[] = [];
  const bus = createAppliedEvents();
  bus.subscribe((_id, events, how) => applied.push({ how, seqs: events.map((e) => e.seq) }));
  let updates = 0;
  store.subscribe(() => updates++);
  const sync = createSessionSync({
    store,
    applied: bus,
    onError: (error) => {
      throw error;
    },
    fetchEvents: (_sessionId, afterSeq) => new Promise((resolve) => fetches.push({ afterSeq, resolve })),
  });
  const text = () => {
    const entry = store.getState().sessions.s?.entries.at(-1);
    return entry?.kind === 'agent' ? entry.text : '';
  };
  /** Answers the oldest waiting fetch from the log and lets its continuation run. */
  const answer = async () => {
    const fetch = fetches.shift()!;
    fetch.resolve(log.filter((e) => e.seq > fetch.afterSeq && e.seq <= 8));
    await new Promise((r) => setTimeout(r, 0));
  };
  return { store, sync, fetches, applied, text, answer, updates: () => updates };
}

describe('the store keeps each session equal to the fold of its log', () => {
  it('applies a streamed batch with one state update', async () => {
    const t = setup();
    void t.sync.load('s');
    await t.answer();
    const before = t.updates();
    t.sync.apply('s', range(9, 12));
    expect(t.updates() - before).toBe(1);
    expect(t.text()).toBe('2 3 4 5 6 7 8 9 10 11 12 ');
    expect(t.applied.at(-1)).toEqual({ how: 'live', seqs: [9, 10, 11, 12] });
  });

  it('a batch whose seq skips ahead refetches the missing events from the log', async () => {
    const t = setup();
    void t.sync.load('s');
    await t.answer();
    t.sync.apply('s', range(1, 4)); // already there: nothing new
    expect(t.applied.map((a) => a.how)).toEqual(['load']);
    const before = t.store.getState().sessions.s;
    t.sync.apply('s', range(11, 12)); // 9 and 10 were missed
    expect(t.store.getState().sessions.s).toBe(before); // not applied over a gap
    expect(t.fetches.map((f) => f.afterSeq)).toEqual([8]);
    const fetch = t.fetches.shift()!;
    fetch.resolve(range(9, 12));
    await new Promise((r) => setTimeout(r, 0));
    expect(t.store.getState().sessions.s.lastSeq).toBe(12);
    expect(t.text()).toBe('2 3 4 5 6 7 8 9 10 11 12 ');
    expect(t.applied.at(-1)).toEqual({ how: 'catch-up', seqs: [9, 10, 11, 12] });
  });

  it('events arriving while a fetch is in flight are applied after it, in order, each once', async () => {
    const t = setup();
    void t.sync.load('s');
    // While the log is on its way: a repeat of what the log holds, then new events in two batches.
    t.sync.apply('s', range(7, 9));
    t.sync.apply('s', range(10, 11));
    expect(t.store.getState().sessions.s).toBeUndefined();
    expect(t.fetches).toHaveLength(1); // one fetch, not one per batch
    await t.answer(); // the log up to 8
    expect(t.store.getState().sessions.s.lastSeq).toBe(11);
    expect(t.text()).toBe('2 3 4 5 6 7 8 9 10 11 ');
    expect(t.applied).toEqual([
      { how: 'load', seqs: [1, 2, 3, 4, 5, 6, 7, 8] },
      { how: 'live', seqs: [9, 10, 11] },
    ]);
  });

  it('held events that still leave a gap after the fetch are fetched too', async () => {
    const t = setup();
    void t.sync.load('s');
    t.sync.apply('s', range(11, 12)); // 9 and 10 never came live
    await t.answer(); // the log up to 8
    expect(t.fetches.map((f) => f.afterSeq)).toEqual([8]);
    t.fetches.shift()!.resolve(range(9, 12));
    await new Promise((r) => setTimeout(r, 0));
    expect(t.text()).toBe('2 3 4 5 6 7 8 9 10 11 12 ');
    expect(t.applied.flatMap((a) => a.seqs)).toEqual(range(1, 12).map((e) => e.seq));
  });

  it('a batch for a session not loaded yet loads its whole log', async () => {
    const t = setup();
    t.sync.apply('s', range(5, 6));
    expect(t.fetches.map((f) => f.afterSeq)).toEqual([0]);
    await t.answer();
    expect(t.store.getState().sessions.s.lastSeq).toBe(8);
  });
});

describe('a session opened from its newest window fills older pages as main answers them', () => {
  /** Main's log: 300 tool calls (one entry each), then updates to the first one. */
  const created: SessionEvent = { kind: 'session.created', agentId: 'a', agentName: 'A', cwd: '/w', sessionId: 's', seq: 1, ts: 1 };
  const tools: SessionEvent[] = Array.from({ length: 300 }, (_, i) => ({
    kind: 'tool.updated',
    toolCallId: `c${i}`,
    fields: { title: `tool ${i}`, status: 'in_progress' },
    sessionId: 's',
    seq: i + 2,
    ts: i + 2,
  }));
  const append = (seq: number, text: string): SessionEvent => ({
    kind: 'tool.contentAppended',
    toolCallId: 'c0',
    content: { type: 'content', content: { type: 'text', text } },
    sessionId: 's',
    seq,
    ts: seq,
  });
  const log = [created, ...tools, append(302, 'one'), append(303, 'two'), append(304, 'three')];
  const mainAt = (seq: number) =>
    reduceSession(
      undefined,
      log.filter((e) => e.seq <= seq),
    );

  function setupPaged() {
    const store = createStore<{ sessions: Record<string, SessionState> }>()(() => ({ sessions: {} }));
    const ranges: { from: number; to: number; resolve(range: EntryRange): void }[] = [];
    const applied: AppliedHow[] = [];
    const bus = createAppliedEvents();
    bus.subscribe((_id, _events, how) => applied.push(how));
    const sync = createSessionSync({
      store,
      applied: bus,
      onError: (error) => {
        throw error;
      },
      fetchEvents: async () => {
        throw new Error('a windowed session reads no log');
      },
      fetchWindow: async () => windowOf(mainAt(301), 50),
      fetchRange: (_sessionId, from, to) => new Promise((resolve) => ranges.push({ from, to, resolve })),
    });
    const session = () => store.getState().sessions.s;
    const first = () => session().entries[0] as ToolCallEntry | undefined;
    const settle = () => new Promise((r) => setTimeout(r, 0));
    return { sync, ranges, applied, session, first, settle };
  }

  it('opens with the newest entries and asks only for the pages that have holes', async () => {
    const t = setupPaged();
    await t.sync.load('s');
    expect(t.applied).toEqual([]); // history: nothing to notify
    expect(t.session().entries).toHaveLength(300);
    expect(t.session().entries[299]).toMatchObject({ toolCallId: 'c299' });
    expect(t.first()).toBeUndefined();
    void t.sync.ensure('s', 260, 300); // loaded already
    void t.sync.ensure('s', 120, 130);
    void t.sync.ensure('s', 125, 135); // the same page: asked once
    expect(t.ranges.map((r) => [r.from, r.to])).toEqual([[100, 200]]);
  });

  it('a page folded to the seq the store is at fills its holes at once', async () => {
    const t = setupPaged();
    await t.sync.load('s');
    void t.sync.ensure('s', 0, 1);
    t.ranges.shift()!.resolve(rangeOf(mainAt(301), 0, 100));
    await t.settle();
    expect(t.session().entries.slice(0, 100)).toEqual(mainAt(301).entries.slice(0, 100));
  });

  it('a page folded further than the store waits for the store to get there: each update counted once', async () => {
    const t = setupPaged();
    await t.sync.load('s');
    void t.sync.ensure('s', 0, 1);
    // Main folded "one" into c0 before answering; the event reaches the page after the answer.
    t.ranges.shift()!.resolve(rangeOf(mainAt(302), 0, 100));
    await t.settle();
    expect(t.first()).toBeUndefined();
    t.sync.apply('s', [log[301], log[302]]); // "one" (skipped: c0 not loaded), then "two" (applied on main's copy)
    expect(t.first()!.content.map((c) => (c.type === 'content' && c.content.type === 'text' ? c.content.text : ''))).toEqual(['one', 'two']);
    t.sync.apply('s', [log[303]]);
    expect(t.session().entries[0]).toEqual(mainAt(304).entries[0]);
  });

  it('a page the store has gone past is asked again', async () => {
    const t = setupPaged();
    await t.sync.load('s');
    void t.sync.ensure('s', 0, 1);
    t.sync.apply('s', [log[301]]); // "one" arrives first: c0 is not loaded, main's copy has it
    t.ranges.shift()!.resolve(rangeOf(mainAt(301), 0, 100)); // folded before "one": stale
    await t.settle();
    expect(t.first()).toBeUndefined();
    expect(t.ranges.map((r) => [r.from, r.to])).toEqual([[0, 100]]);
    t.ranges.shift()!.resolve(rangeOf(mainAt(302), 0, 100));
    await t.settle();
    expect(t.session().entries[0]).toEqual(mainAt(302).entries[0]);
  });
});

describe('a pick (every entry of one kind, wherever it is)', () => {
  it('is asked once per opened window: a view shown again asks main nothing', async () => {
    const store = createStore<{ sessions: Record<string, SessionState> }>()(() => ({ sessions: {} }));
    const created: SessionEvent = { kind: 'session.created', agentId: 'a', agentName: 'A', cwd: '/w', sessionId: 's', seq: 1, ts: 1 };
    const prompts: SessionEvent[] = Array.from({ length: 200 }, (_, i) => ({
      kind: 'turn.started',
      turnId: `t${i}`,
      prompt: [{ type: 'text', text: `q${i}` }],
      sessionId: 's',
      seq: i + 2,
      ts: i + 2,
    }));
    const main = reduceSession(undefined, [created, ...prompts]);
    let picks = 0;
    const sync = createSessionSync({
      store,
      applied: createAppliedEvents(),
      onError: (error) => {
        throw error;
      },
      fetchEvents: async () => [],
      fetchWindow: async () => windowOf(main, 10),
      fetchPick: async (_sessionId, pick) => {
        picks++;
        return pickOf(main, pick);
      },
    });
    await sync.load('s');
    await sync.pick('s', 'user');
    expect(store.getState().sessions.s.entries).toEqual(main.entries);
    await sync.pick('s', 'user');
    expect(picks).toBe(1);
  });
});
