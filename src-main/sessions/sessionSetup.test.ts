import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { describeProtocols, disposer, makeCore } from '../testing/coreHarness';
import type { SettingsInput } from '../../src-shared/settings';
import type { ConfigOption } from '../../src-shared/session/controls';

/** A config option's current value (an option of an unknown type has none). */
const valueOf = (option: ConfigOption | undefined) => (option && 'currentValue' in option ? option.currentValue : undefined);

const harnesses = disposer();
afterEach(() => harnesses.disposeAll());

const MCP: SettingsInput['mcpServers'] = [
  { name: 'files', command: '/usr/bin/mcp-files', args: ['--stdio'], env: { TOKEN: 't1' } },
  { name: 'web', type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' } },
  { name: 'events', type: 'sse', url: 'https://sse.example.com/mcp', headers: {} },
];

describeProtocols('session setup', (protocol) => {
  it('session/new passes MCP servers the agent can use (stdio always, http/sse by capability)', async () => {
    const h = harnesses.track(makeCore([], { mcpServers: MCP }));
    const sessionId = await h.newSession();
    await h.prompt(sessionId, 'echomcp');
    const sent = JSON.parse(h.agentText(sessionId).replace(/^MCP: /, ''));
    expect(sent).toEqual([
      // v2 tags every server with its transport; v1 leaves stdio untagged.
      {
        ...(protocol === 'v1' ? {} : { type: 'stdio' }),
        name: 'files',
        command: '/usr/bin/mcp-files',
        args: ['--stdio'],
        env: [{ name: 'TOKEN', value: 't1' }],
      },
      { type: 'http', name: 'web', url: 'https://mcp.example.com/mcp', headers: [{ name: 'Authorization', value: 'Bearer x' }] },
    ]);
  });

  it('additional workspace folders go to agents that advertise them; others are told plainly', async () => {
    const extra = mkdtempSync(join(tmpdir(), 'acp-extra-'));
    const h = harnesses.track(makeCore(['--additional-dirs'], {}, { agents: [{ id: 'plain', name: 'Plain' }] }));
    const a = await h.newSession('fixture', { additionalDirectories: [extra] });
    await h.prompt(a, 'echodirs');
    expect(h.agentText(a)).toBe(`Dirs: ${JSON.stringify([extra])}`);
    const b = await h.newSession('plain', { additionalDirectories: [extra] });
    await h.prompt(b, 'echodirs');
    expect(h.agentText(b)).toBe('Dirs: null');
    expect(
      h
        .notices(b)
        .map((n) => n.message)
        .join(),
    ).toContain('Plain does not support additional workspace folders');
  });

  it('a restored session (app restart) reconnects with session/load; the log stays the truth', async () => {
    const first = makeCore();
    const sessionId = await first.newSession();
    await first.prompt(sessionId, 'remember me');
    await first.dispose();
    const h = harnesses.track(makeCore([], {}, { dataDir: first.dataDir, workspace: first.workspace }));
    await h.core.ready;
    expect(h.core.state().tabs.open).toEqual([sessionId]);
    const { events } = await h.core.handlers['session.events']({ sessionId, afterSeq: 0 });
    const before = events.filter((e) => e.kind === 'turn.started').length;
    await h.prompt(sessionId, 'after restart');
    // A v2 agent always offers session/resume: the log is the truth, so no replay is asked for.
    expect(h.eventsOf(sessionId, 'session.connected').map((e) => e.how)).toEqual([protocol === 'v1' ? 'load' : 'resume']);
    // The agent replayed canned history; nothing of it was added (the log already had the conversation).
    expect(h.events.some((e) => e.sessionId === sessionId && JSON.stringify(e).includes('Earlier question'))).toBe(false);
    expect(h.agentText(sessionId)).toContain('after restart');
    expect(before).toBe(1);
  });

  it('a restored session reconnects with session/resume when the agent offers it', async () => {
    const first = makeCore(['--resume']);
    const sessionId = await first.newSession();
    await first.prompt(sessionId, 'hello');
    const acpSessionId = first.state(sessionId).acpSessionId;
    await first.dispose();
    const h = harnesses.track(makeCore(['--resume'], {}, { dataDir: first.dataDir, workspace: first.workspace }));
    await h.core.ready;
    await h.prompt(sessionId, 'resumed?');
    expect(h.eventsOf(sessionId, 'session.connected').map((e) => [e.how, e.acpSessionId])).toEqual([['resume', acpSessionId]]);
    expect(h.agentText(sessionId)).toContain('resumed?');
  });

  it('list (cursor pagination, cwd filter), delete and fork only when advertised', async () => {
    const h = harnesses.track(makeCore(['--list'], {}, { agents: [{ id: 'plain', name: 'Plain' }] }));
    const sessionId = await h.newSession();
    const page1 = await h.core.sessions.listSessions('fixture', h.workspace);
    expect(page1.sessions.map((s) => s.sessionId)).toEqual(['fx_listed_1', 'fx_listed_2']);
    expect(page1.sessions[0].cwd).toBe(h.workspace);
    expect(page1.nextCursor).toBe('2');
    const page2 = await h.core.sessions.listSessions('fixture', undefined, page1.nextCursor!);
    expect(page2).toEqual({ sessions: [expect.objectContaining({ sessionId: 'fx_listed_3', title: 'Listed session three' })], nextCursor: null });
    await h.core.sessions.deleteSession('fixture', 'fx_listed_1');
    const fork = await h.core.sessions.forkSession(sessionId);
    expect(fork.acpSessionId).toMatch(/^fx_/);
    expect(fork.acpSessionId).not.toBe(h.state(sessionId).acpSessionId);

    const plain = await h.newSession('plain');
    // session/list is baseline in v2: the plain agent answers (with nothing); in v1 it must be advertised.
    if (protocol === 'v1')
      await expect(h.core.sessions.listSessions('plain')).rejects.toThrow(
        'Fixture Agent does not support listing its sessions (it does not advertise session/list).',
      );
    else expect((await h.core.sessions.listSessions('plain')).sessions).toEqual([]);
    await expect(h.core.sessions.deleteSession('plain', 'x')).rejects.toThrow(/does not support deleting sessions/);
    await expect(h.core.sessions.forkSession(plain)).rejects.toThrow(/does not support forking sessions/);
  });

  it('opening a session from the agent list loads its history into the transcript', async () => {
    const h = harnesses.track(makeCore(['--list']));
    await h.newSession();
    const session = h.core.sessions.create({
      agentId: 'fixture',
      agentName: 'Fixture',
      cwd: h.workspace,
      acpSessionId: 'fx_listed_2',
      title: 'Listed session two',
    });
    await h.core.sessions.connect(session);
    await h.waitFor(() => h.eventsOf(session.id, 'session.connected').length === 1, 'load');
    expect(h.eventsOf(session.id, 'session.connected')[0].how).toBe('load');
    const user = h.state(session.id).entries.find((e) => e.kind === 'user');
    expect(JSON.stringify(user)).toContain('Earlier question in fx_listed_2');
    expect(h.agentText(session.id)).toContain('Earlier answer from the listed session.');
  });

  it('session_info_update (title and metadata), usage_update and the turn usage are kept', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.prompt(sessionId, 'usage');
    const state = h.state(sessionId);
    expect(state.title).toBe('Fixture titled session');
    expect(state.info).toEqual({ updatedAt: '2026-11-05T10:00:00Z', meta: { 'fixture.dev/tags': ['demo'] } });
    expect(state.usage).toEqual({ used: 53000, size: 200000, cost: { amount: 0.045, currency: 'USD' } });
    expect(h.lastStop(sessionId)?.usage).toEqual({ totalTokens: 1200, inputTokens: 1000, outputTokens: 200 });
    expect(h.core.state().sessions.find((s) => s.sessionId === sessionId)?.title).toBe('Fixture titled session');
  });

  it("a person's rename wins over a later session_info_update title; the agent's metadata still arrives", async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.core.handlers['history.rename']({ sessionId, title: 'My own name' });
    await h.prompt(sessionId, 'usage');
    expect(h.state(sessionId).title).toBe('My own name');
    expect(h.state(sessionId).info?.updatedAt).toBe('2026-11-05T10:00:00Z');
    expect(h.core.state().sessions.find((s) => s.sessionId === sessionId)?.title).toBe('My own name');
  });

  it('available_commands_update', async () => {
    const h = harnesses.track(makeCore(['--commands']));
    const sessionId = await h.newSession();
    await h.waitFor(() => h.state(sessionId).commands.length === 3, 'commands');
    expect(h.state(sessionId).commands.map((c) => c.name)).toEqual(['web', 'test', 'plan']);
    expect(h.state(sessionId).commands[0].hint).toEqual('query to search for');
  });

  it('updates sent before the session/new answer are kept and applied once the id is known', async () => {
    const h = harnesses.track(makeCore(['--early-updates']));
    const sessionId = await h.newSession();
    await h.waitFor(() => h.state(sessionId).commands.length === 1, 'early commands');
    expect(h.state(sessionId).commands).toEqual([{ name: 'early', description: 'Sent before session/new answered' }]);
  });

  // v1 only: legacy modes are gone in v2 (config options replace them).
  it.runIf(protocol === 'v1')('legacy modes: set_mode and current_mode_update', async () => {
    const h = harnesses.track(makeCore(['--modes']));
    const sessionId = await h.newSession();
    expect(h.state(sessionId).modes).toEqual({
      currentModeId: 'ask',
      availableModes: [
        { id: 'ask', name: 'Ask' },
        { id: 'code', name: 'Code', description: 'Writes code' },
      ],
    });
    await h.core.handlers['mode.set']({ sessionId, modeId: 'code' });
    await h.waitFor(() => h.state(sessionId).modes?.currentModeId === 'code', 'mode change');
    expect(h.eventsOf(sessionId, 'mode.changed').some((e) => e.byAgent === true)).toBe(true);
  });

  it('config options: select with groups, boolean with the type discriminator, full set replaced, live updates kept raw', async () => {
    const h = harnesses.track(makeCore(['--config']));
    const sessionId = await h.newSession();
    const options = h.state(sessionId).configOptions;
    expect(options.map((o) => [o.id, o.type])).toEqual([
      ['model', 'select'],
      ['mode', 'select'],
      ['web', 'boolean'],
      ['future', 'select'],
    ]);
    expect((options[0] as { options: { group: string }[] }).options.map((g) => g.group)).toEqual(['fast', 'smart']);
    expect(options[3].category).toBe('x_future_category');

    await h.core.handlers['config.set']({ sessionId, configId: 'model', value: 'fixture-pro' });
    await h.waitFor(() => valueOf(h.state(sessionId).configOptions.find((o) => o.id === 'model')) === 'fixture-pro', 'select set');
    await h.core.handlers['config.set']({ sessionId, configId: 'web', value: true });
    await h.waitFor(() => valueOf(h.state(sessionId).configOptions.find((o) => o.id === 'web')) === true, 'boolean set');
    await h.prompt(sessionId, 'echoconfig');
    const calls = JSON.parse(h.agentText(sessionId).replace('Config calls: ', '')) as Record<string, unknown>[];
    // v2 tags a select's value `type: "id"`; v1 leaves it untagged.
    expect(calls[0]).toEqual({
      sessionId: h.state(sessionId).acpSessionId,
      configId: 'model',
      ...(protocol === 'v1' ? {} : { type: 'id' }),
      value: 'fixture-pro',
    });
    expect(calls[1]).toEqual({ sessionId: h.state(sessionId).acpSessionId, configId: 'web', type: 'boolean', value: true });

    await h.prompt(sessionId, 'configupdate');
    const live = h.state(sessionId).configOptions;
    expect(valueOf(live.find((o) => o.id === 'model'))).toBe('fixture-pro');
    expect(live.find((o) => o.id === 'temp')).toMatchObject({
      id: 'temp',
      name: 'Temperature',
      type: 'unknown',
      typeName: 'x_slider',
      raw: { type: 'x_slider', currentValue: 0.5, min: 0, max: 1 },
    });
  });
});

describeProtocols('session/close', (protocol) => {
  it('closing a tab sends session/close only to agents that advertise it (every v2 agent has it)', async () => {
    const h = harnesses.track(makeCore(['--list'], {}, { agents: [{ id: 'plain', name: 'Plain' }] }));
    const a = await h.newSession();
    const b = await h.newSession('plain');
    const calls: string[] = [];
    for (const id of ['fixture', 'plain']) {
      const connection = h.core.agents.connection(id)!;
      const original = connection.request.bind(connection);
      connection.request = ((method: string, params: Record<string, unknown>, options?: object) => {
        calls.push(`${id}:${method}`);
        return original(method, params, options);
      }) as typeof connection.request;
    }
    await h.core.handlers['session.close']({ sessionId: a });
    await h.core.handlers['session.close']({ sessionId: b });
    expect(calls).toEqual(protocol === 'v1' ? ['fixture:session/close'] : ['fixture:session/close', 'plain:session/close']);
    expect(h.core.sessions.sessions.size).toBe(0);
  });
});
