import { afterEach, expect, it, vi } from 'vitest';
import { describeProtocols, makeCore } from '../testing/coreHarness';

const cores: { dispose(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((core) => core.dispose()));
});

describeProtocols('AppCore.busyReasons (the quit confirmation asks only when this is not empty)', () => {
  it('is empty when idle, names a running turn, and is empty again once it ends', async () => {
    const h = makeCore();
    cores.push(h.core);
    expect(h.core.busyReasons()).toEqual([]);
    const sessionId = await h.newSession();
    expect(h.core.busyReasons()).toEqual([]);

    await h.core.handlers['session.prompt']({ sessionId, prompt: [{ type: 'text', text: 'slow' }] });
    const reasons = h.core.busyReasons();
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(/^A turn is running in “.+”\.$/);

    await h.core.handlers['session.cancel']({ sessionId });
    await h.waitFor(() => h.core.busyReasons().length === 0, 'the turn to end');
  });

  it('adds what the installer is busy with (an install in progress)', () => {
    const h = makeCore();
    cores.push(h.core);
    let installing = true;
    vi.spyOn(h.core.registry.installer, 'activeOperations').mockImplementation(() => (installing ? ['Installing Gemini CLI 1.2.0.'] : []));
    expect(h.core.busyReasons()).toEqual(['Installing Gemini CLI 1.2.0.']);
    installing = false;
    expect(h.core.busyReasons()).toEqual([]);
  });
});
