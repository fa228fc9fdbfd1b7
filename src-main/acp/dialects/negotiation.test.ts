import { describe, expect, it } from 'vitest';
import { startNegotiation, stepNegotiation, type NegotiationAction, type NegotiationInput } from './negotiation';
import type { ProtocolSetting } from '../../../src-shared/settings';

const agent = { name: 'Agent X', id: 'x' };

/** Runs the machine over answers; returns the actions it took. */
function run(setting: ProtocolSetting, inputs: NegotiationInput[]): NegotiationAction[] {
  let { state, action } = startNegotiation(setting, agent);
  const actions = [action];
  for (const input of inputs) {
    ({ state, action } = stepNegotiation(state, input));
    actions.push(action);
  }
  return actions;
}

describe('protocol negotiation (pure)', () => {
  it('v1 offers 1 and takes 1', () => {
    expect(run('v1', [{ type: 'answered', protocolVersion: 1 }])).toEqual([
      { type: 'initialize', version: 1 },
      { type: 'done', version: 1 },
    ]);
  });

  it('auto offers 2 and takes 2', () => {
    expect(run('auto', [{ type: 'answered', protocolVersion: 2 }])).toEqual([
      { type: 'initialize', version: 2 },
      { type: 'done', version: 2 },
    ]);
  });

  it('auto: an answer of 1 re-initializes in the v1 shape on the same process', () => {
    expect(
      run('auto', [
        { type: 'answered', protocolVersion: 1 },
        { type: 'answered', protocolVersion: 1 },
      ]),
    ).toEqual([
      { type: 'initialize', version: 2 },
      { type: 'initialize', version: 1 },
      { type: 'done', version: 1 },
    ]);
  });

  it('auto: -32022 picks from data.supported', () => {
    const actions = run('auto', [
      { type: 'error', code: -32022, data: { requested: 2, supported: [1, 5] } },
      { type: 'answered', protocolVersion: 1 },
    ]);
    expect(actions.slice(1)).toEqual([
      { type: 'initialize', version: 1 },
      { type: 'done', version: 1 },
    ]);
  });

  it('auto: a connection closed during the v2 initialize restarts the process on v1, once', () => {
    expect(run('auto', [{ type: 'closed' }, { type: 'answered', protocolVersion: 1 }]).slice(1)).toEqual([
      { type: 'restart', version: 1 },
      { type: 'done', version: 1 },
    ]);
    const twice = run('auto', [{ type: 'closed' }, { type: 'closed' }]);
    expect(twice[2]).toMatchObject({ type: 'fail' });
  });

  it('auto: a v1 agent that cannot parse the v2 shape (-32602) is initialized on v1', () => {
    expect(run('auto', [{ type: 'error', code: -32602, message: 'Invalid params' }])[1]).toEqual({ type: 'initialize', version: 1 });
  });

  it('a v2-only agent configured as v1 fails with a message naming both versions and the setting', () => {
    const [, last] = run('v1', [{ type: 'error', code: -32022, message: 'Unsupported protocol version', data: { requested: 1, supported: [2] } }]);
    expect(last.type).toBe('fail');
    const message = (last as { message: string }).message;
    expect(message).toContain('Agent X speaks ACP protocol version 2');
    expect(message).toContain('"v1" (version 1)');
    expect(message).toContain('agentOverrides["x"].protocol');
    expect(message).toMatch(/"v2" or "auto"/);
  });

  it('a v1-only agent configured as v2 fails with a message naming both versions and the setting', () => {
    const [, last] = run('v2', [{ type: 'answered', protocolVersion: 1 }]);
    expect(last).toMatchObject({ type: 'fail' });
    const message = (last as { message: string }).message;
    expect(message).toContain('speaks ACP protocol version 1');
    expect(message).toContain('"v2" (version 2)');
    expect(message).toMatch(/"v1" or "auto"/);
  });

  it('a version this app does not speak fails and says so', () => {
    const [, last] = run('auto', [{ type: 'answered', protocolVersion: 3 }]);
    expect((last as { message: string }).message).toMatch(/version 3.*speaks versions 1 and 2/);
  });

  it('other errors fail with the agent’s message, and a closed v1 initialize is not retried', () => {
    expect(run('auto', [{ type: 'error', code: -32603, message: 'boom' }])[1]).toEqual({ type: 'fail', message: 'boom' });
    expect(run('v1', [{ type: 'closed' }])[1]).toMatchObject({ type: 'fail', message: expect.stringContaining('closed the connection') });
  });
});
