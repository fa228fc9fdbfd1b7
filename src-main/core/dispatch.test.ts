import { describe, expect, it } from 'vitest';
import { MAX_REQUEST_BYTES, requestNames, type Handlers } from '../../src-shared/ipc/contract';
import { dispatch } from './dispatch';

const handlers = new Proxy({} as Handlers, {
  get: (_target, name) => async (input: unknown) => {
    if (name === 'session.cancel') throw new Error('boom');
    return { echoed: input };
  },
});

describe('dispatch', () => {
  it('answers an unknown request name with a clear error', async () => {
    expect(await dispatch(handlers, 'nope.nothing', {})).toEqual({
      ok: false,
      error: { code: 'unknown_request', message: 'Unknown request "nope.nothing".' },
    });
  });

  it('answers wrong input types naming the field', async () => {
    const answer = await dispatch(handlers, 'session.new', { agentId: 5, cwd: '/tmp' });
    expect(answer.ok).toBe(false);
    if (!answer.ok) {
      expect(answer.error.code).toBe('bad_request');
      expect(answer.error.message).toContain('agentId');
    }
  });

  it('refuses unexpected extra fields', async () => {
    const answer = await dispatch(handlers, 'session.cancel', { sessionId: 's', extra: 1 });
    expect(answer.ok).toBe(false);
  });

  it('refuses oversized payloads before parsing them', async () => {
    const answer = await dispatch(handlers, 'session.prompt', {}, MAX_REQUEST_BYTES + 1);
    expect(answer).toMatchObject({ ok: false, error: { code: 'too_large' } });
  });

  it('turns a throwing handler into an error answer', async () => {
    expect(await dispatch(handlers, 'session.cancel', { sessionId: 's' })).toEqual({ ok: false, error: { code: 'failed', message: 'boom' } });
  });

  it('passes validated input to the handler', async () => {
    expect(await dispatch(handlers, 'session.open', { sessionId: 'abc' })).toEqual({ ok: true, result: { echoed: { sessionId: 'abc' } } });
  });

  it('every request name is domain.action', () => {
    for (const name of requestNames) expect(name).toMatch(/^[a-z]+\.[a-zA-Z]+$/);
  });
});
