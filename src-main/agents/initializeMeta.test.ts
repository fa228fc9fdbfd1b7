import { afterEach, describe, expect, it } from 'vitest';
import { disposer, makeCore } from '../testing/coreHarness';

const harnesses = disposer();
afterEach(() => harnesses.disposeAll());

describe("the agent's initialize _meta", () => {
  it('is kept in the agent summary that the agent info dialog shows', async () => {
    const h = harnesses.track(makeCore());
    await h.newSession();
    const fixture = h.core.state().agents.find((agent) => agent.id === 'fixture');
    // The fixture answers initialize with `_meta: { clientCapabilitiesSeen: <what we declared> }`.
    expect(fixture?.meta).toMatchObject({ clientCapabilitiesSeen: { fs: { readTextFile: true, writeTextFile: true }, terminal: true } });
  });
});
