import { afterEach, expect, it } from 'vitest';
import { describeProtocols, disposer, makeCore } from '../testing/coreHarness';

const harnesses = disposer();
afterEach(() => harnesses.disposeAll());

describeProtocols("the agent's initialize _meta", (protocol) => {
  it('is kept in the agent summary that the agent info dialog shows', async () => {
    const h = harnesses.track(makeCore());
    await h.newSession();
    const fixture = h.core.state().agents.find((agent) => agent.id === 'fixture');
    // The fixture answers initialize with `_meta: { clientCapabilitiesSeen: <what we declared> }`.
    // v2 clients have neither a file system nor terminals to offer.
    expect(fixture?.meta).toMatchObject({
      clientCapabilitiesSeen: protocol === 'v1' ? { fs: { readTextFile: true, writeTextFile: true }, terminal: true } : { auth: { terminal: {} } },
    });
  });
});
