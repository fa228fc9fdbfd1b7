import { describe, expect, it } from 'vitest';
import type { SessionEvent, SessionEventBody } from './events';
import { reduceSession } from './reducer';
import type { SessionState } from './state';
import { holesIn, mergeRange, pickOf, rangeOf, stateFromWindow, windowOf } from './window';

/** A log of bodies numbered as main records them. */
function numbered(bodies: SessionEventBody[], from = 1): SessionEvent[] {
  return bodies.map((body, i) => ({ ...body, sessionId: 's', seq: from + i, ts: from + i }) as SessionEvent);
}

const plan = (status: string): SessionEventBody => ({
  kind: 'plan.replaced',
  planId: 'p1',
  entries: [{ content: 'write the parser', priority: 'high', status, raw: {} }],
});

/** Turn `n`: a prompt, a reply with a message id, a tool call; the first turn also a plan. */
function turn(n: number): SessionEventBody[] {
  return [
    { kind: 'turn.started', turnId: `t${n}`, prompt: [{ type: 'text', text: `question ${n}` }] },
    ...(n === 0 ? [plan('pending')] : []),
    { kind: 'message.chunk', role: 'agent', messageId: `m${n}`, content: { type: 'text', text: `answer ${n}` } },
    { kind: 'tool.updated', toolCallId: `c${n}`, fields: { title: `edit ${n}`, toolKind: 'edit', status: 'in_progress' } },
    { kind: 'turn.ended', turnId: `t${n}`, stopReason: 'end_turn' },
  ];
}

const opening = numbered([{ kind: 'session.created', agentId: 'a', agentName: 'A', cwd: '/w' }, ...Array.from({ length: 60 }, (_, n) => turn(n)).flat()]);

/** Events after the page opened that touch entries far back (not in a 10-entry window). */
const later = numbered(
  [
    { kind: 'turn.started', turnId: 't60', prompt: [{ type: 'text', text: 'go on' }] },
    { kind: 'tool.updated', toolCallId: 'c1', fields: { status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'done' } }] } },
    { kind: 'tool.contentAppended', toolCallId: 'c2', content: { type: 'content', content: { type: 'text', text: 'more' } } },
    plan('completed'),
    {
      kind: 'permission.requested',
      requestId: 'r1',
      toolCallId: 'c3',
      tool: { title: 'edit 3' },
      options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }],
    },
    { kind: 'permission.resolved', requestId: 'r1', optionId: 'ok' },
    { kind: 'message.chunk', role: 'agent', content: { type: 'text', text: 'new reply' } },
    { kind: 'turn.ended', turnId: 't60', stopReason: 'end_turn' },
  ],
  opening.length + 1,
);

/** Main's state and the page's state opened from a window of `size` at the end of `opening`. */
function opened(size: number): { main: SessionState; page: SessionState } {
  const main = reduceSession(undefined, opening);
  return { main, page: stateFromWindow(windowOf(main, size)) };
}

describe('a session paged from main (window.ts)', () => {
  it('opens with the newest entries at their absolute indices and holes before them', () => {
    const { main, page } = opened(10);
    expect(page.entries).toHaveLength(main.entries.length);
    expect(page.entries.slice(-10)).toEqual(main.entries.slice(-10));
    expect(page.entries[0]).toBeUndefined();
    expect(holesIn(page.entries, 0, page.entries.length)).toEqual({ from: 0, to: main.entries.length - 10 });
    // Indexes name the same entries as in main: the newest tool call is where toolIndex says.
    expect(page.entries[page.toolIndex.c59]).toMatchObject({ kind: 'tool', toolCallId: 'c59' });
  });

  it('leaves updates to entries it has not loaded to main, and equals main once their pages come', () => {
    const { main, page } = opened(10);
    const mainAfter = reduceSession(main, later);
    const pageAfter = reduceSession(page, later);
    // Nothing invented for the entries not loaded: no duplicate tool call, plan or message.
    expect(pageAfter.entries).toHaveLength(mainAfter.entries.length);
    expect(pageAfter.entries[pageAfter.toolIndex.c1]).toBeUndefined();
    expect(pageAfter.plan).toEqual(mainAfter.plan);
    expect(pageAfter.status).toBe(mainAfter.status);
    expect(pageAfter.entries.slice(-3)).toEqual(mainAfter.entries.slice(-3));

    let merged = pageAfter;
    for (let from = 0; from < mainAfter.entries.length; from += 50) merged = mergeRange(merged, rangeOf(mainAfter, from, from + 50));
    expect(merged.entries).toEqual(mainAfter.entries);
    expect(merged.entries[merged.toolIndex.c1]).toMatchObject({ status: 'completed', content: [{ type: 'content' }] });
    expect(merged.entries[merged.toolIndex.c2]).toMatchObject({ content: [{ type: 'content' }] });
    expect(merged.entries[merged.toolIndex.c3]).toMatchObject({ permissionOutcome: { optionId: 'ok' } });
    expect(merged.entries[1]).toMatchObject({ kind: 'plan', entries: [{ status: 'completed' }] });
  });

  it('a merged range fills only holes: loaded entries keep their objects', () => {
    const { main, page } = opened(10);
    const last = page.entries.at(-1);
    const merged = mergeRange(page, rangeOf(main, main.entries.length - 20, main.entries.length));
    expect(merged.entries.at(-1)).toBe(last);
    expect(merged.entries.slice(-20)).toEqual(main.entries.slice(-20));
    expect(holesIn(merged.entries, 0, merged.entries.length)?.to).toBe(main.entries.length - 20);
    // Nothing to fill: the same state.
    expect(mergeRange(merged, rangeOf(main, main.entries.length - 5, main.entries.length))).toBe(merged);
  });

  it('a jump far back loads the range around its entry, not what is between', () => {
    const { main, page } = opened(10);
    const target = main.toolIndex.c5;
    const jumped = mergeRange(page, rangeOf(main, target - 5, target + 5));
    expect(jumped.entries[target]).toEqual(main.entries[target]);
    expect(holesIn(jumped.entries, target + 5, main.entries.length - 10)).toEqual({ from: target + 5, to: main.entries.length - 10 });
    expect(holesIn(jumped.entries, 0, target - 5)).toEqual({ from: 0, to: target - 5 });
  });
});

describe('a pick: every entry one kind of view reads, wherever it is', () => {
  it('fills the holes at the picked indices and nothing else', () => {
    const { main, page } = opened(10);
    const picked = mergeRange(page, pickOf(main, 'user'));
    const users = main.entries.flatMap((entry, index) => (entry.kind === 'user' ? [index] : []));
    expect(users).toHaveLength(60);
    for (const index of users) expect(picked.entries[index]).toEqual(main.entries[index]);
    expect(picked.entries[main.toolIndex.c0]).toBeUndefined();
  });
});
