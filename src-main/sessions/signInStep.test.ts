import { afterEach, expect, it } from 'vitest';
import { describeProtocols, disposer, makeCore } from '../testing/coreHarness';

const harnesses = disposer();
afterEach(() => harnesses.disposeAll());

describeProtocols('a sign-in asked for at the first prompt', () => {
  it('leaves the session waiting for the person (not "error"), and the prompt goes again after sign-in', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.prompt(sessionId, 'needsignin');
    expect(h.lastStop(sessionId)).toMatchObject({ stopReason: 'auth_required' });
    expect(h.state(sessionId).authMethods).not.toBeNull();
    expect(h.state(sessionId).status).toBe('waiting');
    await h.core.handlers['auth.start']({ sessionId, methodId: 'fixture-login' });
    await h.waitFor(() => h.agentText(sessionId).includes('Signed in and answered.'), 'the prompt sent again');
    expect(h.state(sessionId).status).toBe('idle');
  });
});
