import { afterEach, expect, it } from 'vitest';
import { describeProtocols, disposer, makeCore } from '../testing/coreHarness';

const harnesses = disposer();
afterEach(() => harnesses.disposeAll());

describeProtocols('restoring a session is folding its log', () => {
  it('a prompt still queued when the app stopped is kept, and is sent first when the conversation goes on', async () => {
    const first = makeCore();
    const sessionId = await first.newSession();
    await first.send(sessionId, 'slow');
    expect(await first.send(sessionId, 'typed while waiting')).toEqual({ queued: true });
    await first.waitFor(() => first.state(sessionId).queue.length === 1, 'the queued prompt');
    await first.dispose();

    const h = harnesses.track(makeCore([], {}, { dataDir: first.dataDir, workspace: first.workspace }));
    await h.core.ready;
    expect(
      h.core.sessions
        .get(sessionId)
        .fold()
        .queue.map((q) => q.prompt),
    ).toEqual([[{ type: 'text', text: 'typed while waiting' }]]);
    expect(await h.send(sessionId, 'after restart')).toEqual({ queued: true });
    await h.waitFor(() => h.agentText(sessionId).includes('**Echo:** after restart'), 'both prompts to be answered');
    const text = h.agentText(sessionId);
    expect(text.indexOf('**Echo:** typed while waiting')).toBeGreaterThan(-1);
    expect(text.indexOf('**Echo:** typed while waiting')).toBeLessThan(text.indexOf('**Echo:** after restart'));
    expect(h.state(sessionId).queue).toEqual([]);
  });
});
