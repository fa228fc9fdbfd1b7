import { readFileSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { describeProtocols, disposer, makeCore } from '../testing/coreHarness';

const harnesses = disposer();
afterEach(() => harnesses.disposeAll());

describeProtocols('extensibility and forward compatibility', (protocol) => {
  it('unknown requests get -32601, with or without the `_` prefix; unknown notifications are ignored', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.prompt(sessionId, 'custom');
    expect(h.agentText(sessionId)).toBe('_fixture/ping: -32601; fixture/unprefixed: -32601');
    expect(h.notices(sessionId)).toEqual([]);
    expect(h.state(sessionId).entries.filter((e) => e.kind === 'unknown')).toEqual([]);
    expect(h.lastStop(sessionId)).toMatchObject({ stopReason: 'end_turn' });
  });

  it('unknown update kinds, tool kinds and statuses, content types, plan values and stop reasons are kept raw and shown generically', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.prompt(sessionId, 'unknown');
    const state = h.state(sessionId);
    const unknown = state.entries.filter((e) => e.kind === 'unknown');
    expect(unknown.map((e) => e.kind === 'unknown' && e.label)).toEqual(['update _fixture_custom', 'update future_update_kind']);
    expect(unknown.map((e) => e.kind === 'unknown' && e.raw)).toEqual([
      { sessionUpdate: '_fixture_custom', payload: { answer: 42 } },
      { sessionUpdate: 'future_update_kind', note: 'from ACP v9' },
    ]);
    expect(h.tool(sessionId, 'fut_1')).toMatchObject({ toolKind: 'x_teleport', status: 'x_warping', title: 'Teleport' });
    const agent = state.entries.find((e) => e.kind === 'agent');
    expect(agent?.kind === 'agent' && agent.blocks).toEqual([{ type: 'unknown', typeName: 'x_hologram', raw: { type: 'x_hologram', data: 'future content' } }]);
    expect(state.plan).toEqual([
      { content: 'Future step', priority: 'x_urgent', status: 'x_paused', raw: { content: 'Future step', priority: 'x_urgent', status: 'x_paused' } },
    ]);
    expect(h.lastStop(sessionId)).toMatchObject({ stopReason: 'x_future_stop' });
    // The same raw values are in the log on disk, so a reload shows them again.
    h.core.sessions.flush();
    const log = readFileSync(h.core.sessions.logFile(sessionId), 'utf8');
    for (const value of ['_fixture_custom', 'future_update_kind', 'x_teleport', 'x_warping', 'x_hologram', 'x_urgent', 'x_paused', 'x_future_stop']) {
      expect(log).toContain(value);
    }
  });

  // v1 only: the refused requests are v1's (terminal/create, a v1 permission request).
  it.runIf(protocol === 'v1')('requests the SDK refuses (schema check) are answered with its error and kept raw on the session', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.prompt(sessionId, 'badrequest');
    expect(h.agentText(sessionId)).toBe('Bad requests: error -32602, error -32602');
    const rejected = h.eventsOf(sessionId, 'acp.rejected');
    expect(rejected.map((e) => [e.method, e.error.code])).toEqual([
      ['terminal/create', -32602],
      ['session/request_permission', -32602],
    ]);
    expect(rejected[0].params).toMatchObject({ command: 'true', outputByteLimit: -1 });
    expect(h.state(sessionId).entries.filter((e) => e.kind === 'unknown')).toHaveLength(2);
    expect(h.lastStop(sessionId)).toMatchObject({ stopReason: 'end_turn' });
  });

  it('_meta is preserved on tool calls, content blocks and plan entries', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.prompt(sessionId, 'meta');
    expect(h.tool(sessionId, 'meta_1')?.meta).toEqual({ 'fixture.dev/trace': 'abc' });
    const chunk = h.eventsOf(sessionId, 'message.chunk').find((e) => e.role === 'agent')!;
    expect(chunk.content).toEqual({ type: 'text', text: 'meta text', _meta: { 'fixture.dev/block': 1 } });
    expect(h.state(sessionId).plan[0].raw._meta).toEqual({ 'fixture.dev/step': 2 });
  });

  it('the agent’s _meta from initialize is kept (here: the client capabilities it saw)', async () => {
    const h = harnesses.track(makeCore());
    await h.newSession();
    expect((h.core.agents.connection('fixture')!.initializeResult as Record<string, unknown>)._meta).toMatchObject({
      // What this client declared, in each version's shape (v2 clients have no terminal of their own).
      clientCapabilitiesSeen: protocol === 'v1' ? { terminal: true } : { auth: { terminal: {} } },
    });
  });
});
