import { describe, expect, it } from 'vitest';
import { sessionToMarkdown } from '../history/markdown';
import type { SessionEvent, SessionEventBody } from './events';
import { reduceSession } from './reducer';

function fold(bodies: SessionEventBody[]) {
  const events = bodies.map((body, i) => ({ ...body, sessionId: 's', seq: i + 1, ts: 1000 + i }) as SessionEvent);
  return reduceSession(undefined, events);
}

const folder = (commit: string) => [{ root: '/w', commit }];

describe('checkpoint events in the session fold', () => {
  const turn: SessionEventBody[] = [
    { kind: 'session.created', agentId: 'a', agentName: 'A', cwd: '/w' },
    { kind: 'turn.started', turnId: 't1', prompt: [{ type: 'text', text: 'go' }] },
    { kind: 'checkpoint.taken', checkpointId: 'cp1', reason: 'turn', turnId: 't1', folders: folder('c1') },
    { kind: 'turn.ended', turnId: 't1', stopReason: 'end_turn' },
    { kind: 'checkpoint.taken', checkpointId: 'cp2', reason: 'turnEnd', turnId: 't1', folders: folder('c2') },
    { kind: 'turn.changes', turnId: 't1', before: 'cp1', after: 'cp2', files: [{ root: '/w', path: 'a.txt', status: 'modified' }] },
  ];

  it('keeps each turn’s checkpoints and changes, in turn order', () => {
    const state = fold(turn);
    expect(state.checkpoints).toMatchObject({ order: ['t1'], turns: { t1: { before: 'cp1', after: 'cp2', files: [{ path: 'a.txt' }] } } });
    // No transcript entry of their own: the turn's stop line shows the count.
    expect(state.entries.map((entry) => entry.kind)).toEqual(['user', 'stop']);
  });

  it('marks a restore in the transcript and owes the agent a note until the next turn’s checkpoint', () => {
    const restored = fold([
      ...turn,
      { kind: 'checkpoint.taken', checkpointId: 'cp3', reason: 'restore', turnId: null, folders: folder('c3') },
      {
        kind: 'checkpoint.restored',
        checkpointId: 'cp1',
        undoCheckpointId: 'cp3',
        turnId: 't1',
        label: '1',
        files: [{ root: '/w', path: 'a.txt', status: 'modified' }],
      },
    ]);
    expect(restored.entries.at(-1)).toMatchObject({ kind: 'restore', label: '1', undoCheckpointId: 'cp3', files: [{ path: 'a.txt' }] });
    expect(restored.checkpoints?.pendingNote).toMatch(/restored these files to how they were before message 1 .*: a\.txt\]/);
    expect(sessionToMarkdown(restored)).toContain('**Files restored** to before message 1: `a.txt`');

    const told = reduceSession(restored, [
      { kind: 'turn.started', turnId: 't2', prompt: [], sessionId: 's', seq: 100, ts: 2000 },
      { kind: 'checkpoint.taken', checkpointId: 'cp4', reason: 'turn', turnId: 't2', folders: folder('c3'), sessionId: 's', seq: 101, ts: 2001 },
    ]);
    expect(told.checkpoints?.pendingNote).toBeUndefined();
  });

  it('folds kept hunks per scope and file, and remembers why checkpoints are off', () => {
    const state = fold([
      ...turn,
      { kind: 'review.kept', scope: 't1', root: '/w', path: 'a.txt', hunks: ['h1'] },
      { kind: 'review.kept', scope: 't1', root: '/w', path: 'a.txt', hunks: ['h1', 'h2'] },
      { kind: 'checkpoint.taken', checkpointId: 'cp9', reason: 'turn', turnId: 't9', folders: [{ root: '/w', commit: null }], error: 'no git' },
    ]);
    expect(Object.values(state.checkpoints!.kept)).toEqual([['h1', 'h2']]);
    expect(state.checkpoints?.unavailable).toBe('no git');
    expect(state.checkpoints?.snapshots.cp9).toBeUndefined();
  });
});
