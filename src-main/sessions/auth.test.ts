import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentEnvKey, InMemorySecretStore, readAgentEnv, writeAgentEnv } from '../store/secretStore';
import { describeProtocols, disposer, makeCore } from '../testing/coreHarness';

const harnesses = disposer();
afterEach(() => harnesses.disposeAll());

describeProtocols('authentication', (protocol) => {
  it('agent method: auth_required from session/new starts the flow; the session connects after authenticate', async () => {
    const h = harnesses.track(makeCore(['--auth']));
    const sessionId = await h.newSession();
    expect(h.state(sessionId).status).toBe('waiting');
    expect(h.state(sessionId).authMethods?.map((m) => m.id)).toEqual(['fixture-login', 'fixture-terminal', 'fixture-future']);
    expect(h.core.state().sessions[0].needsAttention).toBe(1);
    await h.core.handlers['auth.start']({ sessionId, methodId: 'fixture-login' });
    await h.waitFor(() => h.eventsOf(sessionId, 'session.connected').length === 1, 'connect after sign-in');
    expect(h.state(sessionId).authMethods).toBeNull();
    await h.prompt(sessionId, 'signed in');
    expect(h.agentText(sessionId)).toContain('signed in');
  });

  it('a prompt typed before signing in is sent after sign-in; auth_required from session/prompt retries the prompt', async () => {
    const h = harnesses.track(makeCore(['--auth', '--logout']));
    const sessionId = await h.newSession();
    expect(await h.send(sessionId, 'typed early')).toEqual({ queued: false });
    await h.waitFor(() => h.lastStop(sessionId) !== undefined, 'blocked turn');
    expect(h.lastStop(sessionId)).toMatchObject({ stopReason: 'auth_required' });
    await h.core.handlers['auth.start']({ sessionId, methodId: 'fixture-login' });
    await h.waitFor(() => h.agentText(sessionId).includes('typed early'), 'retried prompt');

    // Signed out by `logout`: the next prompt meets auth_required and is retried after signing in again.
    expect(await h.core.handlers['agent.logout']({ agentId: 'fixture' })).toEqual({ ok: true, loggedOut: true, forgotValues: false });
    await h.prompt(sessionId, 'after logout');
    expect(h.lastStop(sessionId)).toMatchObject({ stopReason: 'auth_required', error: expect.stringContaining('sent again after you sign in') });
    expect(h.state(sessionId).authMethods).not.toBeNull();
    await h.core.handlers['auth.start']({ sessionId, methodId: 'fixture-login' });
    await h.waitFor(() => h.agentText(sessionId).includes('after logout'), 'retried after sign-in');
  });

  it('env_var: asks for the values, keeps secrets out of files, restarts the agent with them, then authenticates', async () => {
    const h = harnesses.track(makeCore(['--auth-env', 'FIXTURE_KEY']));
    const sessionId = await h.newSession();
    const method = h.state(sessionId).authMethods!.find((m) => m.type === 'env_var')!;
    expect(method.raw).toMatchObject({ id: 'fixture-key', vars: [{ name: 'FIXTURE_KEY', label: 'Fixture API key', secret: true }] });
    await expect(h.core.handlers['auth.start']({ sessionId, methodId: 'fixture-key', env: {} })).rejects.toThrow('Fill in Fixture API key.');
    await expect(h.core.handlers['auth.start']({ sessionId, methodId: 'fixture-key', env: { OTHER: 'x' } })).rejects.toThrow(/OTHER is not one of the values/);
    await expect(h.core.handlers['auth.start']({ sessionId, methodId: 'fixture-login', env: { FIXTURE_KEY: 'x' } })).rejects.toThrow(/takes no values/);
    const pidBefore = h.core.agents.connection('fixture')!.pid;
    await h.core.handlers['auth.start']({ sessionId, methodId: 'fixture-key', env: { FIXTURE_KEY: 'sk-very-secret' } });
    await h.waitFor(() => h.eventsOf(sessionId, 'session.connected').length === 1, 'connect');
    expect(h.core.agents.connection('fixture')!.pid).not.toBe(pidBefore);
    await h.prompt(sessionId, 'with a key');
    expect(h.agentText(sessionId)).toContain('with a key');
    expect(readAgentEnv(h.core.agents.secrets, 'fixture')).toEqual({ FIXTURE_KEY: 'sk-very-secret' });
    const signIn = h.core.state().agents[0].signIn!;
    expect(signIn).toMatchObject({ storedEnv: ['FIXTURE_KEY'], secretsPersistent: false });
    // Never on disk in clear text: not in settings, not in the session log.
    h.core.sessions.flush();
    const files = [join(h.dataDir, 'settings.json'), ...readdirSync(join(h.dataDir, 'sessions')).map((f) => join(h.dataDir, 'sessions', f))];
    for (const file of files) expect(readFileSync(file, 'utf8')).not.toContain('sk-very-secret');
    // Signing out forgets the value and restarts the agent without it.
    // A v2 agent that lists sign-in methods always has auth/logout; this v1 agent does not advertise logout.
    expect(await h.core.handlers['agent.logout']({ agentId: 'fixture' })).toEqual({ ok: true, loggedOut: protocol !== 'v1', forgotValues: true });
    expect(readAgentEnv(h.core.agents.secrets, 'fixture')).toEqual({});
  });

  it('terminal: runs the agent command with the method args and env interactively; exit 0 signs in', async () => {
    const h = harnesses.track(makeCore());
    const credFile = join(h.workspace, 'cred');
    const h2 = harnesses.track(makeCore(['--auth', '--cred-file', credFile]));
    const sessionId = await h2.newSession();
    // A wrong code: the terminal exits 1, the methods stay.
    let { terminalId } = await h2.core.handlers['auth.start']({ sessionId, methodId: 'fixture-terminal' });
    expect(terminalId).toBeTruthy();
    await h2.waitFor(() => h2.eventsOf(sessionId, 'terminal.created').length === 1, 'terminal');
    const [created] = h2.eventsOf(sessionId, 'terminal.created');
    expect(created).toMatchObject({ interactive: true, command: process.execPath });
    expect(created.args.slice(-2)).toEqual([credFile, '--login-terminal']);
    await h2.waitFor(() => h2.state(sessionId).terminals[terminalId!]?.output.includes('Type the code'), 'prompt in the terminal');
    await h2.core.handlers['terminal.input']({ sessionId, terminalId: terminalId!, data: '9999\r' });
    await h2.waitFor(() => h2.state(sessionId).terminals[terminalId!]?.exited, 'exit');
    await h2.waitFor(() => h2.notices(sessionId).some((n) => n.message.includes('sign-in in the terminal ended with code 1')), 'failure notice');
    expect(h2.state(sessionId).authMethods).not.toBeNull();

    ({ terminalId } = await h2.core.handlers['auth.start']({ sessionId, methodId: 'fixture-terminal' }));
    await h2.waitFor(() => h2.state(sessionId).terminals[terminalId!]?.output.includes('Type the code'), 'prompt in the terminal');
    await h2.core.handlers['terminal.resize']({ sessionId, terminalId: terminalId!, cols: 100, rows: 20 });
    await h2.core.handlers['terminal.input']({ sessionId, terminalId: terminalId!, data: '1234\r' });
    await h2.waitFor(() => h2.eventsOf(sessionId, 'session.connected').length === 1, 'connect after terminal sign-in');
    expect(h2.state(sessionId).terminals[terminalId!]).toMatchObject({ exited: true, exitCode: 0, interactive: true });
    expect(h2.state(sessionId).terminals[terminalId!].output).toContain('Signed in.');
    expect(readFileSync(credFile, 'utf8')).toBe('FIXTURE_LOGIN=1\n');
    await h2.prompt(sessionId, 'after terminal login');
    expect(h2.agentText(sessionId)).toContain('after terminal login');
  });

  // v1 only: an untyped method with `_meta["terminal-auth"]` is a v1 adapter's quirk; v2 methods always have a type.
  it.runIf(protocol === 'v1')('quirk: the legacy `_meta["terminal-auth"]` method (Claude Code adapter) runs its command in a terminal', async () => {
    const h = harnesses.track(makeCore());
    const credFile = join(h.workspace, 'legacy-cred');
    const h2 = harnesses.track(makeCore(['--auth', '--legacy-terminal-auth', '--cred-file', credFile]));
    const sessionId = await h2.newSession();
    const [method] = h2.state(sessionId).authMethods!;
    expect(method).toMatchObject({ id: 'fixture-legacy', type: 'terminal', raw: { _meta: { 'terminal-auth': { label: 'Fixture Login' } } } });
    const { terminalId } = await h2.core.handlers['auth.start']({ sessionId, methodId: 'fixture-legacy' });
    await h2.waitFor(() => h2.state(sessionId).terminals[terminalId!]?.output.includes('Type the code'), 'legacy terminal');
    expect(h2.state(sessionId).terminals[terminalId!].args).toEqual([
      expect.stringMatching(/fixture-agent\.mjs$/),
      '--login-terminal',
      '--cred-file',
      credFile,
    ]);
    await h2.core.handlers['terminal.input']({ sessionId, terminalId: terminalId!, data: '1234\r' });
    await h2.waitFor(() => h2.eventsOf(sessionId, 'session.connected').length === 1, 'connect');
    expect(readFileSync(credFile, 'utf8')).toBe('FIXTURE_LOGIN=legacy\n');
  });

  it('unknown method types are listed generically and refused clearly; nothing crashes', async () => {
    const h = harnesses.track(makeCore(['--auth']));
    const sessionId = await h.newSession();
    const future = h.state(sessionId).authMethods!.find((m) => m.id === 'fixture-future')!;
    expect(future).toMatchObject({ type: 'x_future_auth', name: 'Future method', raw: { id: 'fixture-future', type: 'x_future_auth' } });
    await expect(h.core.handlers['auth.start']({ sessionId, methodId: 'fixture-future' })).rejects.toThrow(
      'Fixture offers "Future method", a sign-in method of type "x_future_auth" that this app does not support yet. Use another method.',
    );
    await expect(h.core.handlers['auth.start']({ sessionId, methodId: 'nope' })).rejects.toThrow(/not one of Fixture's sign-in methods/);
    expect(h.state(sessionId).authMethods).not.toBeNull();
    await h.core.handlers['auth.start']({ sessionId, methodId: 'fixture-login' });
    await h.waitFor(() => h.eventsOf(sessionId, 'session.connected').length === 1, 'connect');
  });

  // v1 only: in v2 every agent that lists sign-in methods has auth/logout.
  it.runIf(protocol === 'v1')('logout is refused when the agent does not advertise it and nothing is stored', async () => {
    const h = harnesses.track(makeCore());
    await h.newSession();
    await expect(h.core.handlers['agent.logout']({ agentId: 'fixture' })).rejects.toThrow(/does not support signing out/);
  });
});

describe('secret store', () => {
  it('keeps an agent environment per agent; damaged entries read as empty', () => {
    const store = new InMemorySecretStore();
    writeAgentEnv(store, 'a', { KEY: 'v' });
    expect(readAgentEnv(store, 'a')).toEqual({ KEY: 'v' });
    expect(readAgentEnv(store, 'b')).toEqual({});
    store.set(agentEnvKey('b'), '{not json');
    expect(readAgentEnv(store, 'b')).toEqual({});
    writeAgentEnv(store, 'a', {});
    expect(store.get(agentEnvKey('a'))).toBeNull();
  });
});
