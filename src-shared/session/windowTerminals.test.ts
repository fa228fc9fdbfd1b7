import { describe, expect, it } from 'vitest';
import type { SessionEvent, SessionEventBody } from './events';
import { reduceSession } from './reducer';
import type { SessionState } from './state';
import { mergeRange, rangeOf, stateFromWindow, windowOf } from './window';
import { PANEL_TERMINALS } from './windowTerminals';

/** A log of bodies numbered as main records them. */
function numbered(bodies: SessionEventBody[], from = 1): SessionEvent[] {
  return bodies.map((body, i) => ({ ...body, sessionId: 's', seq: from + i, ts: from + i }) as SessionEvent);
}

/** Turn `n`: a prompt and a tool call that ran a terminal to its end (4 entries: prompt, tool, …, stop). */
function terminalTurn(n: number, { release = true } = {}): SessionEventBody[] {
  const terminalId = `term${n}`;
  return [
    { kind: 'turn.started', turnId: `t${n}`, prompt: [{ type: 'text', text: `question ${n}` }] },
    { kind: 'tool.updated', toolCallId: `c${n}`, fields: { title: `run ${n}`, toolKind: 'execute', status: 'in_progress' } },
    { kind: 'terminal.created', terminalId, command: 'npm', args: ['test', String(n)] },
    { kind: 'tool.updated', toolCallId: `c${n}`, fields: { content: [{ type: 'terminal', terminalId }] } },
    { kind: 'terminal.output', terminalId, data: `output of ${n}\r\n` },
    { kind: 'terminal.exited', terminalId, exitCode: 0, signal: null },
    ...(release ? [{ kind: 'terminal.released', terminalId } as SessionEventBody] : []),
    { kind: 'tool.updated', toolCallId: `c${n}`, fields: { status: 'completed' } },
    { kind: 'turn.ended', turnId: `t${n}`, stopReason: 'end_turn' },
  ];
}

/** 200 turns that each ran a terminal; the 10th one is still running (never exited or released). */
function longSession(): SessionState {
  const bodies = Array.from({ length: 200 }, (_, n) => terminalTurn(n)).flat();
  const running: SessionEventBody[] = [
    { kind: 'terminal.created', terminalId: 'watch', command: 'npm', args: ['run', 'watch'] },
    { kind: 'terminal.output', terminalId: 'watch', data: 'watching…' },
  ];
  return reduceSession(
    undefined,
    numbered([{ kind: 'session.created', agentId: 'a', agentName: 'A', cwd: '/w' }, ...bodies.slice(0, 90), ...running, ...bodies.slice(90)]),
  );
}

describe('terminals travel with the entries that show them (issue 23)', () => {
  it('a window carries the terminals its rows show, the running ones and the newest few, not all of them', () => {
    const main = longSession();
    expect(Object.keys(main.terminals)).toHaveLength(201);
    const window = windowOf(main, 20);
    const page = stateFromWindow(window);
    const ids = Object.keys(page.terminals);
    // 20 entries hold 6–7 tool calls; the panel lists the newest 12; one runs.
    expect(ids.length).toBeLessThan(PANEL_TERMINALS + 10);
    expect(ids).toContain('watch');
    expect(ids).toContain('term199');
    expect(ids).not.toContain('term0');
    expect(window.terminalCount).toBe(201);
    // Every row of the window finds its terminal.
    for (const entry of page.entries.slice(-20)) {
      if (entry?.kind !== 'tool') continue;
      for (const content of entry.content)
        if (content.type === 'terminal') expect(page.terminals[content.terminalId]).toEqual(main.terminals[content.terminalId]);
    }
    // The newest terminals come last, in main's order: the panel lists the end of the record.
    expect(ids.at(-1)).toBe('term199');
  });

  it('a page of older entries brings their terminals, put before the newer ones', () => {
    const main = longSession();
    const page = stateFromWindow(windowOf(main, 20));
    const range = rangeOf(main, 0, 40);
    expect(Object.keys(range.terminals ?? {})).toContain('term0');
    const merged = mergeRange(page, range);
    expect(merged.terminals.term0).toEqual(main.terminals.term0);
    expect(Object.keys(merged.terminals)[0]).toBe('term0');
    expect(Object.keys(merged.terminals).at(-1)).toBe('term199');
    // Every entry loaded: the page holds what main holds for every row.
    let all = page;
    for (let from = 0; from < main.entries.length; from += 100) all = mergeRange(all, rangeOf(main, from, from + 100));
    for (const id of Object.keys(main.terminals)) expect(all.terminals[id]).toEqual(main.terminals[id]);
  });

  it('a terminal that runs on after the window keeps streaming into the page', () => {
    const main = longSession();
    const page = stateFromWindow(windowOf(main, 20));
    const more = numbered([{ kind: 'terminal.output', terminalId: 'watch', data: ' rebuilt' }], main.lastSeq + 1);
    expect(reduceSession(page, more).terminals.watch.output).toBe(reduceSession(main, more).terminals.watch.output);
  });
});

describe('a batch writes its own copy of the terminals in place (issue 23)', () => {
  // The fold copied the record on every terminal event (quadratic: 71 s to fold 6,250 terminals;
  // `npm run bench -- --content mixed` shows it). Now a batch copies it once and writes in place,
  // so what must hold is that it never writes into the state it started from.
  it('copies the record it started from once, however many terminal events the batch holds, and leaves it untouched', () => {
    const main = longSession();
    let copies = 0;
    const counted = new Proxy(main.terminals, {
      ownKeys(target) {
        copies++;
        return Reflect.ownKeys(target);
      },
    });
    const before = { ...main, terminals: counted };
    const batch = numbered(Array.from({ length: 50 }, (_, n) => terminalTurn(1000 + n, { release: n % 2 === 0 })).flat(), main.lastSeq + 1);
    const after = reduceSession(before, batch);
    expect(copies).toBe(1);
    expect(Object.keys(after.terminals)).toHaveLength(251);
    expect(after.terminals.term1001).toMatchObject({ exited: true, released: false, output: 'output of 1001\r\n' });
    expect(Object.keys(main.terminals)).toHaveLength(201);
    expect(main.terminals.term1000).toBeUndefined();
    // The next batch starts from the new state and copies again (never writes into `after`).
    const next = reduceSession(after, numbered([{ kind: 'terminal.released', terminalId: 'term1001' }], after.lastSeq + 1));
    expect(next.terminals.term1001.released).toBe(true);
    expect(after.terminals.term1001.released).toBe(false);
  });
});
