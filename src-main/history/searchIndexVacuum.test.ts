import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionEvent, SessionEventBody } from '../../src-shared/session/events';
import { reduceSession } from '../../src-shared/session/reducer';
import type { SessionState } from '../../src-shared/session/state';
import { SearchIndex } from './searchIndex';
import { decodeV1Update } from '../acp/decode/v1Update';

const created: SessionEventBody = { kind: 'session.created', agentId: 'a', agentName: 'A', cwd: '/w' };
const say = (text: string): SessionEventBody => decodeV1Update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
const ask = (text: string, turnId: string): SessionEventBody => ({ kind: 'turn.started', turnId, prompt: [{ type: 'text', text }] });
const ended = (turnId: string): SessionEventBody => ({ kind: 'turn.ended', turnId, stopReason: 'end_turn' });

/** A session folded as its events arrive, the way the session manager does. */
function live(sessionId: string) {
  let state: SessionState | undefined;
  let seq = 0;
  return (...bodies: SessionEventBody[]): SessionState =>
    (state = reduceSession(
      state,
      bodies.map((body) => ({ ...body, sessionId, seq: ++seq, ts: 1000 + seq }) as SessionEvent),
    ));
}

describe('SearchIndex under streaming', () => {
  it('survives two sessions streaming while MiniSearch vacuums, and finds the finished replies', async () => {
    const errors: unknown[] = [];
    const onError = (error: unknown) => errors.push(error);
    process.on('unhandledRejection', onError);
    process.on('uncaughtException', onError);
    try {
      const index = new SearchIndex(mkdtempSync(join(tmpdir(), 'acp-search-')), 60_000);
      // Random short terms split the radix tree's edges: the upstream hazard is a term added
      // while a vacuum is paused between batches (MiniSearch 7.2: "reading 'keys'").
      let seed = 7;
      const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
      const word = () =>
        Math.floor(random() * 36 ** 6)
          .toString(36)
          .slice(0, 1 + Math.floor(random() * 6));
      const old = live('old');
      index.indexState(old(created, ask('old', 't0'), say(Array.from({ length: 10_000 }, word).join(' ')), ended('t0')), 1, true);
      const a = live('sa');
      const b = live('sb');
      index.indexState(a(created, ask('first', 't1')), 1, false);
      index.indexState(b(created, ask('second', 't1')), 1, false);
      for (let round = 0; round < 150; round++) {
        index.indexState(a(say(` word${round} ${Array.from({ length: 20 }, word).join(' ')}`)), round, false);
        index.indexState(b(say(` term${round} ${Array.from({ length: 20 }, word).join(' ')}`)), round, false);
        if (round % 5 === 0) await new Promise((r) => setTimeout(r, 1));
      }
      index.indexState(a(ended('t1')), 1000, false);
      index.indexState(b(ended('t1')), 1000, false);
      await index.idle();
      expect(errors).toEqual([]);
      expect(index.search('word149').map((hit) => hit.sessionId)).toEqual(['sa']);
      expect(index.search('term149').map((hit) => hit.sessionId)).toEqual(['sb']);
    } finally {
      process.off('unhandledRejection', onError);
      process.off('uncaughtException', onError);
    }
  });
});
