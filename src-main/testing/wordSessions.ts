import type { SessionEvent, SessionEventBody } from '../../src-shared/session/events';
import { reduceSession } from '../../src-shared/session/reducer';
import type { SessionState } from '../../src-shared/session/state';
import { decodeV1Update } from '../acp/decode/v1Update';

const words = 'parser stream folds line event arriving nothing waits okapi zebra heron'.split(' ');

/**
 * A folded session of `turns` turns (a prompt and a reply each) whose words repeat across turns,
 * for the search index's tests: `perTurn` words a turn, drawn with `stride`; `skip` leaves one
 * turn out (a session that changed).
 */
export function wordSession(sessionId: string, turns: number, { perTurn = 8, stride = 3, skip = -1 } = {}): SessionState {
  const bodies: SessionEventBody[] = [{ kind: 'session.created', agentId: 'a', agentName: 'A', cwd: '/w' }];
  for (let turn = 0; turn < turns; turn++) {
    if (turn === skip) continue;
    const said = Array.from({ length: perTurn }, (_, i) => words[(turn * stride + i * 5) % words.length]).join(' ');
    bodies.push({ kind: 'turn.started', turnId: `t${turn}`, prompt: [{ type: 'text', text: `Question ${turn}: ${said}` }] });
    bodies.push(decodeV1Update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `Answer ${turn} ${said} ${said}` } }));
    bodies.push({ kind: 'turn.ended', turnId: `t${turn}`, stopReason: 'end_turn' });
  }
  return reduceSession(
    undefined,
    bodies.map((body, i) => ({ ...body, sessionId, seq: i + 1, ts: 1000 + i }) as SessionEvent),
  );
}
