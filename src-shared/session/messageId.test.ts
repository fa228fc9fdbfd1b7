import { expect, it } from 'vitest';
import type { SessionEvent, SessionEventBody } from './events';
import { reduceSession } from './reducer';
import { decodeV1Update } from '../../src-main/acp/decode/v1Update';

// rfds-message-id, v1: `messageId` is optional on agent, thought and user chunks; when present,
// a change of it between chunks is a new message ("reliable message boundary detection").
let seq = 0;
function fold(...bodies: SessionEventBody[]) {
  seq = 0;
  return reduceSession(
    undefined,
    [{ kind: 'session.created', agentId: 'a', agentName: 'A', cwd: '/' } as SessionEventBody, ...bodies].map(
      (body) => ({ ...body, sessionId: 's', seq: ++seq, ts: seq }) as SessionEvent,
    ),
  );
}
// Decoded by the v1 dialect's decoder, as a v1 agent's chunks are on the session path.
const chunk = (sessionUpdate: string, text: string, messageId?: string): SessionEventBody =>
  decodeV1Update({ sessionUpdate, content: { type: 'text', text }, ...(messageId ? { messageId } : {}) });

it('agent message chunks: a new messageId starts a new message; the same one, or none, continues it', () => {
  const state = fold(
    chunk('agent_message_chunk', 'Looking ', 'm1'),
    chunk('agent_message_chunk', 'at it.', 'm1'),
    chunk('agent_message_chunk', 'Fixed ', 'm2'),
    chunk('agent_message_chunk', 'it.'),
  );
  expect(state.entries.map((entry) => [entry.kind, 'text' in entry ? entry.text : ''])).toEqual([
    ['agent', 'Looking at it.'],
    ['agent', 'Fixed it.'],
  ]);
});

it('thought chunks: a new messageId starts a new thought', () => {
  const state = fold(
    chunk('agent_thought_chunk', 'First idea. ', 't1'),
    chunk('agent_thought_chunk', 'More.', 't1'),
    chunk('agent_thought_chunk', 'Second idea.', 't2'),
  );
  expect(state.entries.map((entry) => [entry.kind, 'text' in entry ? entry.text : ''])).toEqual([
    ['thought', 'First idea. More.'],
    ['thought', 'Second idea.'],
  ]);
});

it('replayed user chunks (session/load): a new messageId starts a new user message', () => {
  const state = fold(chunk('user_message_chunk', 'Hello ', 'u1'), chunk('user_message_chunk', 'there', 'u1'), chunk('user_message_chunk', 'Again', 'u2'));
  expect(
    state.entries.map((entry) => (entry.kind === 'user' ? entry.content.map((block) => (block as unknown as { text: string }).text).join('') : entry.kind)),
  ).toEqual(['Hello there', 'Again']);
});
