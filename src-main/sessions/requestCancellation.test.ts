import { afterEach, expect, it } from 'vitest';
import { describeProtocols, disposer, makeCore } from '../testing/coreHarness';

// `$/cancel_request` both ways (rfds-request-cancellation), in v1 and in v2 (`auto`: the fixture
// speaks v2, where the agent withdraws its permission requests with `$/cancel_request` and the
// client answers them with the `cancelled` outcome).
const harnesses = disposer();
afterEach(() => harnesses.disposeAll());

describeProtocols('request cancellation', () => {
  it('the agent withdraws its permission request: the card closes, the transcript says so, and the agent gets the `cancelled` outcome', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.send(sessionId, 'withdraw 400');
    await h.waitForPermission(sessionId);
    await h.waitFor(() => h.lastStop(sessionId) !== undefined, 'turn end');
    expect(h.state(sessionId).permissions).toEqual([]);
    expect(h.notices(sessionId).map((notice) => notice.message)).toContainEqual(
      expect.stringMatching(/^The agent withdrew its permission request “Run make deploy”/),
    );
    expect(h.agentText(sessionId)).toContain('Withdrawn; the client answered {"outcome":"cancelled"}');
    expect(h.state(sessionId).status).toBe('idle');
  });

  it('the agent withdraws its question (elicitation): the form closes with a note, answered `cancel`', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.send(sessionId, 'withdrawelicit 400');
    await h.waitForElicitation(sessionId);
    await h.waitFor(() => h.lastStop(sessionId) !== undefined, 'turn end');
    expect(h.state(sessionId).elicitations).toEqual([]);
    expect(h.notices(sessionId).map((notice) => notice.message)).toContainEqual(
      expect.stringMatching(/^The agent withdrew its question “Which branch should I deploy\?”/),
    );
    expect(h.agentText(sessionId)).toContain('Withdrawn; the client answered cancel');
  });

  it("stopping a turn withdraws the app's own requests still waiting for the agent, with `$/cancel_request`", async () => {
    const h = harnesses.track(makeCore(['--config', '--slow-config', '20000']));
    const sessionId = await h.newSession();
    await h.send(sessionId, 'permission');
    await h.waitForPermission(sessionId);
    // A config change the agent is slow to answer, sent during the turn.
    const change = h.core.handlers['config.set']({ sessionId, configId: 'model', value: 'fixture-pro' }).then(
      () => 'answered',
      (error: Error) => error.message,
    );
    const traffic = async () => (await h.core.handlers['inspector.window']({ agentId: 'fixture' })).rows;
    let request: { id?: string | number | null } | undefined;
    for (let i = 0; i < 200 && !request; i++) {
      request = (await traffic()).find((row) => row.dir === 'out' && row.method === 'session/set_config_option');
      if (!request) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(request).toBeDefined();
    await h.core.handlers['session.cancel']({ sessionId });
    expect(await change).toMatch(/was cancelled: the turn was stopped/);
    await h.waitFor(() => h.lastStop(sessionId) !== undefined, 'turn end');
    const rows = await traffic();
    const withdrawals = rows.filter((row) => row.dir === 'out' && row.method === '$/cancel_request').map((row) => JSON.parse(row.text).params.requestId);
    // The config change was withdrawn; the prompt was not (`session/cancel` ends it).
    expect(withdrawals).toEqual([request!.id]);
    expect(rows.some((row) => row.dir === 'out' && row.method === 'session/cancel')).toBe(true);
    expect(h.lastStop(sessionId)).toMatchObject({ stopReason: 'cancelled' });
  });
});
