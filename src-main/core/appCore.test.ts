import { afterEach, expect, it } from 'vitest';
import { describeProtocols, makeCore } from '../testing/coreHarness';

const cores: { dispose(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.dispose()));
});

describeProtocols('AppCore with the fixture agent', () => {
  it('streams a reply to a prompt and ends the turn', async () => {
    const h = makeCore();
    cores.push(h.core);
    const sessionId = await h.newSession();
    const state = await h.prompt(sessionId, 'hello there');
    const agent = state.entries.find((e) => e.kind === 'agent');
    expect(agent && agent.kind === 'agent' && agent.text).toContain('**Echo:** hello there');
    const stop = state.entries.at(-1);
    expect(stop).toMatchObject({ kind: 'stop', stopReason: 'end_turn' });
    expect(state.status).toBe('idle');
  });
});
