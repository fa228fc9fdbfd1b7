import { afterEach, expect, it } from 'vitest';
import { describeProtocols, disposer, makeCore } from '../testing/coreHarness';

const harnesses = disposer();
afterEach(() => harnesses.disposeAll());

const PNG = { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' };

describeProtocols('prompt turns', (protocol) => {
  it('sends text, resource links and embedded resources; refuses what the prompt capabilities do not allow', async () => {
    const h = harnesses.track(makeCore(['--no-image']));
    const sessionId = await h.newSession();
    const link = { type: 'resource_link', uri: `file://${h.workspace}/a.ts`, name: 'a.ts' };
    const embedded = { type: 'resource', resource: { uri: `file://${h.workspace}/b.ts`, text: 'const b = 1;', mimeType: 'text/x-typescript' } };
    await h.prompt(sessionId, [{ type: 'text', text: 'echometa' }, link, embedded]);
    expect(h.agentText(sessionId)).toContain('blocks: ["text","resource_link","resource"]');
    await expect(h.send(sessionId, [{ type: 'text', text: 'look' }, PNG])).rejects.toThrow(
      'Fixture does not accept images in prompts (not in its prompt capabilities).',
    );
    await expect(h.send(sessionId, [{ type: 'audio', mimeType: 'audio/wav', data: 'UklGRg==' }])).rejects.toThrow(/does not accept audio/);
    await expect(h.send(sessionId, [{ type: 'x_hologram', data: 1 }])).rejects.toThrow(/does not accept "x_hologram" content/);
    expect(h.eventsOf(sessionId, 'turn.started')).toHaveLength(1);
  });

  it('a prompt sent before the agent is ready is queued, then checked against the capabilities it announces', async () => {
    const h = harnesses.track(makeCore(['--no-image', '--slow-init', '300']));
    const { sessionId } = await h.core.handlers['session.new']({ agentId: 'fixture', cwd: h.workspace });
    expect(await h.send(sessionId, [{ type: 'text', text: 'see' }, PNG])).toEqual({ queued: true });
    expect(await h.send(sessionId, 'hello after start')).toEqual({ queued: true });
    await h.waitFor(() => h.state(sessionId)?.entries.filter((e) => e.kind === 'stop').length === 2, 'both turns');
    const stops = h.state(sessionId).entries.filter((e) => e.kind === 'stop');
    expect(stops[0]).toMatchObject({ stopReason: 'error', error: expect.stringContaining('does not accept images') });
    expect(stops[1]).toMatchObject({ stopReason: 'end_turn' });
    expect(h.agentText(sessionId)).toContain('hello after start');
    expect(h.state(sessionId).queue).toEqual([]);
  });

  it('a follow-up typed during a turn is queued visibly and sent when the turn ends', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    expect(await h.send(sessionId, 'plan')).toEqual({ queued: false });
    expect(await h.send(sessionId, 'second')).toEqual({ queued: true });
    await h.waitFor(() => h.state(sessionId).queue.length === 1, 'queued entry');
    await h.waitFor(() => h.state(sessionId).entries.filter((e) => e.kind === 'stop').length === 2, 'both turns');
    // A v2 turn ends with the session's idle state (`turnEnded`), a v1 turn with the prompt's answer.
    const kinds = h.events
      .filter((e) => e.sessionId === sessionId)
      .flatMap((e) => (e.kind === 'session.state' ? (e.turnEnded ? ['turn.ended'] : []) : /^(turn|prompt)\./.test(e.kind) ? [e.kind] : []));
    expect(kinds).toEqual(['turn.started', 'prompt.queued', 'turn.ended', 'prompt.dequeued', 'turn.started', 'turn.ended']);
    expect(h.agentText(sessionId)).toContain('**Echo:** second');
  });

  it('stop reasons: end_turn, and a future one (x_future_stop) is kept as it came', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.prompt(sessionId, 'hello');
    expect(h.lastStop(sessionId)).toMatchObject({ stopReason: 'end_turn' });
    await h.prompt(sessionId, 'unknown');
    expect(h.lastStop(sessionId)).toMatchObject({ stopReason: 'x_future_stop' });
    expect(h.lastStop(sessionId)?.error).toBeUndefined();
    expect(h.state(sessionId).status).toBe('idle');
  });

  it('stop reasons max_tokens, max_turn_requests and refusal end the turn as sent, without an error', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    for (const reason of ['max_tokens', 'max_turn_requests', 'refusal']) {
      await h.prompt(sessionId, `stop ${reason}`);
      expect(h.lastStop(sessionId)).toMatchObject({ stopReason: reason });
      expect(h.lastStop(sessionId)?.error).toBeUndefined();
      expect(h.state(sessionId).status).toBe('idle');
    }
    expect(h.agentText(sessionId)).toContain('Stopping with refusal.');
  });

  it('cancel answers a pending permission with `cancelled`, and the turn ends `cancelled`', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.send(sessionId, 'permission');
    const pending = await h.waitForPermission(sessionId);
    await h.core.handlers['session.cancel']({ sessionId });
    await h.waitFor(() => h.lastStop(sessionId) !== undefined, 'turn end');
    expect(h.eventsOf(sessionId, 'permission.resolved')).toMatchObject([{ requestId: pending.requestId, optionId: null, reason: 'cancelled' }]);
    expect(h.lastStop(sessionId)).toMatchObject({ stopReason: 'cancelled' });
    expect(h.tool(sessionId, pending.toolCallId)?.status).toBe('canceled');
    expect(h.state(sessionId).permissions).toEqual([]);
    expect(h.state(sessionId).status).toBe('idle');
  });

  it('updates sent after session/cancel are still shown, until the prompt returns', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.send(sessionId, 'lateupdates');
    await h.waitFor(() => h.tool(sessionId, 'late_1') !== undefined, 'tool call');
    await h.core.handlers['session.cancel']({ sessionId });
    await h.waitFor(() => h.lastStop(sessionId) !== undefined, 'turn end');
    expect(h.tool(sessionId, 'late_1')).toMatchObject({ status: 'failed', rawOutput: { cancelled: true } });
    expect(h.agentText(sessionId)).toContain('Stopped as asked.');
    expect(h.lastStop(sessionId)).toMatchObject({ stopReason: 'cancelled' });
  });

  // v1 only: a v2 agent reports the end of a turn by state (fixture-agent.mjs sends `cancelled` there).
  it.runIf(protocol === 'v1')('Stop: an agent that stops but answers `end_turn` (Copilot CLI 1.0.79) still shows the turn as stopped', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.send(sessionId, 'endturnoncancel');
    await h.waitFor(() => h.agentText(sessionId).includes('Working'), 'the stream');
    await h.core.handlers['session.cancel']({ sessionId });
    await h.waitFor(() => h.lastStop(sessionId) !== undefined, 'turn end');
    expect(h.agentText(sessionId)).toContain('Info: Operation cancelled by user');
    expect(h.lastStop(sessionId)).toMatchObject({ stopReason: 'cancelled' });
    // A turn nobody stopped keeps the agent's answer.
    await h.prompt(sessionId, 'plain');
    expect(h.lastStop(sessionId)).toMatchObject({ stopReason: 'end_turn' });
  });

  it('the turn ends even if the agent never answers after cancel (cancelGraceMs)', async () => {
    const h = harnesses.track(makeCore([], {}, { core: { cancelGraceMs: 300 } }));
    const sessionId = await h.newSession();
    await h.send(sessionId, 'stubborn');
    await h.waitFor(() => h.agentText(sessionId).includes('I will not stop.'), 'stubborn start');
    const started = Date.now();
    await h.core.handlers['session.cancel']({ sessionId });
    await h.waitFor(() => h.lastStop(sessionId) !== undefined, 'turn end', 3000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(h.lastStop(sessionId)).toMatchObject({ stopReason: 'cancelled' });
    // The session is usable again.
    await h.prompt(sessionId, 'next one');
    expect(h.agentText(sessionId)).toContain('next one');
  });

  it('cancel with nothing running does nothing harmful; queued prompts are withdrawn', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.core.handlers['session.cancel']({ sessionId });
    await h.send(sessionId, 'slow');
    await h.send(sessionId, 'queued one');
    await h.waitFor(() => h.state(sessionId).queue.length === 1, 'queued');
    await h.core.handlers['session.cancel']({ sessionId });
    await h.waitFor(() => h.lastStop(sessionId) !== undefined, 'turn end');
    expect(h.state(sessionId).queue).toEqual([]);
    expect(h.lastStop(sessionId)).toMatchObject({ stopReason: 'cancelled' });
    expect(h.eventsOf(sessionId, 'turn.started')).toHaveLength(1);
  });

  it('ten thousand streamed chunks arrive complete and in order, in far fewer batches', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    let batches = 0;
    h.core.on((name) => void (name === 'session.events' && batches++));
    await h.prompt(sessionId, 'many 10000', 30_000);
    const expected = Array.from({ length: 10_000 }, (_, i) => `w${i} `).join('');
    expect(h.agentText(sessionId)).toBe(expected);
    const seqs = h.events.filter((e) => e.sessionId === sessionId).map((e) => e.seq);
    // The window gets a frame's text chunks merged (coalesceChunks.ts), so seqs rise without being
    // contiguous; nothing is lost (the text above) and the last one is the log's last.
    expect(seqs[0]).toBe(1);
    expect(seqs.every((seq, i) => i === 0 || seq > seqs[i - 1])).toBe(true);
    expect(seqs.at(-1)).toBe(h.state(sessionId).lastSeq);
    // The chunks, the user's message, turn start and end, the connection; v2 also logs the running state.
    expect(h.state(sessionId).lastSeq).toBe(protocol === 'v1' ? 10_004 : 10_005);
    expect(batches).toBeLessThan(2000);
  }, 40_000);
});
