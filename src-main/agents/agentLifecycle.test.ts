import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLIENT_CAPABILITIES, CLIENT_INFO } from '../acp/clientSide';
import { disposer, makeCore } from '../testing/coreHarness';

const harnesses = disposer();
afterEach(() => harnesses.disposeAll());

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('agent processes', () => {
  it('initialize: truthful client capabilities and client info; agent info, capabilities and auth methods kept and shown', async () => {
    const h = harnesses.track(makeCore(['--list', '--resume']));
    await h.newSession();
    const connection = h.core.agents.connection('fixture')!;
    const init = connection.initializeResult as Record<string, unknown>;
    expect((init._meta as Record<string, unknown>).clientCapabilitiesSeen).toEqual(CLIENT_CAPABILITIES);
    const summary = h.core.state().agents.find((a) => a.id === 'fixture')!;
    expect(summary.process).toBe('ready');
    expect(summary.protocolVersion).toBe(1);
    expect(summary.agentInfo).toEqual({ name: 'fixture-agent', title: 'Fixture Agent', version: '1.2.3' });
    expect(summary.capabilities).toMatchObject({
      loadSession: true,
      promptCapabilities: { image: true, embeddedContext: true },
      mcpCapabilities: { http: true, sse: false },
      sessionCapabilities: expect.arrayContaining(['list', 'resume', 'fork', 'delete', 'close']),
    });
    expect(summary.authMethods?.map((m) => [m.id, m.type])).toEqual([
      ['fixture-login', 'agent'],
      ['fixture-terminal', 'terminal'],
      ['fixture-future', 'x_future_auth'],
    ]);
    expect(CLIENT_INFO).toMatchObject({ name: 'acp-desktop', version: expect.any(String) });
  });

  it('a crash mid-turn ends the turn, shows the last stderr lines on the session, keeps what streamed, and restart reconnects', async () => {
    const h = harnesses.track(makeCore([], {}, { agents: [{ id: 'other', name: 'Other' }] }));
    const sessionId = await h.newSession();
    const other = await h.newSession('other');
    const state = await h.prompt(sessionId, 'crash now');
    expect(h.agentText(sessionId)).toContain('About to crash...');
    expect(h.lastStop(sessionId)).toMatchObject({ stopReason: 'error' });
    await h.waitFor(() => h.eventsOf(sessionId, 'agent.exited').length === 1, 'agent.exited');
    const exited = h.eventsOf(sessionId, 'agent.exited')[0];
    expect(exited.code).toBe(3);
    expect(exited.stderrTail.join('\n')).toContain('fatal error: simulated crash');
    await h.waitFor(() => h.state(sessionId).status === 'exited', 'status exited');
    expect(state.entries.some((e) => e.kind === 'notice' && e.level === 'error' && e.detail?.some((l) => l.includes('simulated crash')))).toBe(true);
    expect((await h.core.handlers['agent.stderr']({ agentId: 'fixture' })).lines.join('\n')).toContain('simulated crash');
    // The other agent's session is untouched.
    await h.prompt(other, 'still here?');
    expect(h.agentText(other)).toContain('still here?');
    // Restart path: the session reconnects (session/load, history already in the log) and works.
    await h.core.handlers['agent.restart']({ agentId: 'fixture' });
    await h.waitFor(() => h.eventsOf(sessionId, 'session.connected').length === 2, 'reconnect after restart');
    expect(h.eventsOf(sessionId, 'session.connected')[1].how).toBe('load');
    expect(h.state(sessionId).status).toBe('idle');
    await h.prompt(sessionId, 'back again');
    expect(h.agentText(sessionId)).toContain('back again');
  });

  it('an agent that crashes before answering initialize: a clear error with its stderr', async () => {
    const h = harnesses.track(makeCore(['--crash-on-start']));
    const sessionId = await h.newSession();
    await h.waitFor(() => h.notices(sessionId).some((n) => n.level === 'error'), 'error notice');
    const text = h
      .notices(sessionId)
      .map((n) => `${n.message} ${(n.detail ?? []).join(' ')}`)
      .join('\n');
    expect(text).toContain('exited with code 7');
    expect(text).toContain('crashing on start as asked');
    expect(h.state(sessionId).status).toMatch(/error|exited/);
    await h.waitFor(() => h.core.state().agents[0].process === 'error', 'agent error state');
    expect(h.core.state().agents[0].error).toContain('Fixture failed to start');
  });

  it('initialize has a timeout with a clear error', async () => {
    const h = harnesses.track(makeCore(['--slow-init', '5000'], {}, { core: { initializeTimeoutMs: 300 } }));
    const sessionId = await h.newSession();
    expect(
      h
        .notices(sessionId)
        .map((n) => n.message)
        .join('\n'),
    ).toMatch(/Fixture failed to start: The agent did not answer initialize within 300 ms/);
    expect(h.state(sessionId).status).toBe('error');
    expect(h.eventsOf(sessionId, 'agent.exited')).toEqual([]);
  });

  it('an agent answering with a protocol version we cannot speak is disconnected with a clear message', async () => {
    const h = harnesses.track(makeCore(['--protocol', '99']));
    const sessionId = await h.newSession();
    expect(
      h
        .notices(sessionId)
        .map((n) => n.message)
        .join('\n'),
    ).toContain('Fixture speaks ACP protocol version 99; it is set to "v1" (version 1). This app speaks versions 1 and 2');
    await h.waitFor(() => h.core.agents.connection('fixture') === undefined && h.core.state().agents[0].process === 'error', 'agent stopped');
  });

  it('spawn failures: command not found, not executable', async () => {
    const h = harnesses.track(makeCore([], {}, { agents: [{ id: 'missing', name: 'Missing', command: '/nonexistent/acp-agent' }] }));
    const script = join(h.workspace, 'agent.sh');
    writeFileSync(script, '#!/bin/sh\necho hi\n');
    chmodSync(script, 0o644);
    const h2 = harnesses.track(makeCore([], {}, { agents: [{ id: 'noexec', name: 'NoExec', command: script }] }));
    const a = await h.newSession('missing');
    const b = await h2.newSession('noexec');
    expect(
      h
        .notices(a)
        .map((n) => n.message)
        .join('\n'),
    ).toMatch(/Missing failed to start: The agent could not be started: \/nonexistent\/acp-agent: spawn \/nonexistent\/acp-agent ENOENT/);
    expect(
      h2
        .notices(b)
        .map((n) => n.message)
        .join('\n'),
    ).toMatch(/NoExec failed to start: .*EACCES/);
  });

  it('non-JSON lines on stdout: ignored for the protocol, shown on the session and kept in the agent log', async () => {
    const h = harnesses.track(makeCore(['--garbage-on-start']));
    const sessionId = await h.newSession();
    expect(h.state(sessionId).status).toBe('idle');
    await h.prompt(sessionId, 'garbage please');
    expect(h.agentText(sessionId)).toContain('Printed garbage.');
    expect(
      h
        .notices(sessionId)
        .map((n) => n.message)
        .join('\n'),
    ).toContain('not ACP on stdout (ignored): this is not json, just a log line');
    const log = (await h.core.handlers['agent.stderr']({ agentId: 'fixture' })).lines.join('\n');
    expect(log).toContain('[stdout, not ACP] Starting fixture agent v1.2.3...');
    expect(log).toContain('[stdout, not ACP] this is not json, just a log line');
  });

  it('an error response from the agent ends the turn with its message; the session keeps working', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.prompt(sessionId, 'fail');
    expect(h.lastStop(sessionId)).toMatchObject({ stopReason: 'error', error: expect.stringContaining('The fixture failed on purpose') });
    await h.prompt(sessionId, 'and again');
    expect(h.lastStop(sessionId)).toMatchObject({ stopReason: 'end_turn' });
  });

  it('quitting stops the whole process tree of every agent', async () => {
    const h = harnesses.track(makeCore());
    const pidFile = join(h.workspace, 'child.pid');
    // A real process: what is proven is that its whole process tree is stopped.
    const h2 = harnesses.track(makeCore(['--spawn-child', pidFile], {}, { processes: true }));
    await h2.newSession();
    await h2.waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').length > 0, 'child pid');
    const child = Number(readFileSync(pidFile, 'utf8'));
    const agentPid = h2.core.agents.connection('fixture')!.pid!;
    expect(alive(child)).toBe(true);
    await h2.core.dispose();
    await h.waitFor(() => !alive(child) && !alive(agentPid), 'the tree to be gone', 5000);
  });
});
