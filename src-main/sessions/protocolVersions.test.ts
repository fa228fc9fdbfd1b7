import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProtocolSetting } from '../../src-shared/settings';
import { CLIENT_CAPABILITIES, CLIENT_INFO } from '../acp/clientSide';
import { disposer, makeCore } from '../testing/coreHarness';
import type { ConfigOption } from '../../src-shared/session/controls';

/** A config option's current value (an option of an unknown type has none). */
const valueOf = (option: ConfigOption | undefined) => (option && 'currentValue' in option ? option.currentValue : undefined);

/*
 * ACP v1 and v2 through the whole session path (settings → AgentManager → AgentConnection's
 * negotiation → client handlers → the session's log): the fixture agents of both versions,
 * each agent's `protocol` setting deciding what is offered.
 */

const V2_FIXTURE = resolve(import.meta.dirname, '../../e2e/fixtures/fixture-agent-v2.mjs');
import type { RawObject } from '../../src-shared/session/raw';

const harnesses = disposer();
afterEach(() => harnesses.disposeAll());

/**
 * A core with the v2 fixture agent as `v2` and fixture-agent.mjs as `fixture`, each with a protocol
 * setting; `fixture` runs with `fixtureArgs` (by default `--v1-only`: an agent that speaks only v1).
 */
function v2Core(args: string[], protocol: ProtocolSetting, v1Protocol: ProtocolSetting = 'v1', fixtureArgs = ['--v1-only']) {
  return harnesses.track(
    makeCore(
      fixtureArgs,
      { agentOverrides: { v2: { protocol }, fixture: { protocol: v1Protocol } } },
      { agents: [{ id: 'v2', name: 'Fixture v2', command: process.execPath, args: [V2_FIXTURE, '--delay', '1', ...args] }] },
    ),
  );
}

function logFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'acp-v2-log-')), 'received.jsonl');
}

/** The `initialize` requests the fixture received, in order. */
function initializes(log: string): RawObject[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as RawObject)
    .filter((message) => message.method === 'initialize');
}

describe('ACP v2 through the session layer (protocol "auto")', () => {
  it('a conversation: version 2 recorded on connect, the turn ends once at the first idle after running (repeated idle snapshots are not new turns)', async () => {
    const h = v2Core([], 'auto');
    const sessionId = await h.newSession('v2');
    expect(h.eventsOf(sessionId, 'session.connected')[0].protocolVersion).toBe(2);
    expect(h.state(sessionId).commands.map((command) => command.name)).toContain('plan');
    await h.prompt(sessionId, 'hello there');
    expect(h.agentText(sessionId)).toBe('You said: hello there');
    // The two further idle snapshots the fixture sends must not end (or start) anything.
    await new Promise((r) => setTimeout(r, 150));
    expect(h.state(sessionId).entries.filter((entry) => entry.kind === 'stop')).toHaveLength(1);
    expect(h.eventsOf(sessionId, 'turn.ended')).toEqual([]);
    expect(h.state(sessionId).status).toBe('idle');
    expect(h.state(sessionId).protocolVersion).toBe(2);
    expect(h.core.state().agents.find((agent) => agent.id === 'v2')?.protocolVersion).toBe(2);
    // The next prompt is a new turn that ends again.
    await h.prompt(sessionId, 'again');
    expect(h.state(sessionId).entries.filter((entry) => entry.kind === 'stop')).toHaveLength(2);
  });

  it('permission requests show their title, explanation and subject (a command, an unknown `_x` subject kept raw, a tool call), and the session waits for the person', async () => {
    const h = v2Core([], 'auto');
    const sessionId = await h.newSession('v2');
    await h.send(sessionId, 'permission');
    const first = await h.waitForPermission(sessionId);
    expect(first.title).toBe('Run npm test?');
    expect(first.description).toBe('The tests write to /tmp.');
    expect(first.subject).toMatchObject({ type: 'command', command: 'npm test', cwd: '/w' });
    expect(first.toolCallId).toBe('tc-p');
    expect(h.state(sessionId).status).toBe('waiting');
    await h.core.handlers['permission.respond']({ sessionId, requestId: first.requestId, optionId: 'yes' });
    await h.waitFor(() => h.state(sessionId).permissions[0]?.title === 'Open the pod bay doors?', 'the second request');
    const second = h.state(sessionId).permissions[0];
    expect(second.subject).toEqual({ type: 'unknown', typeName: '_x_door', raw: { type: '_x_door', door: 'pod bay' } });
    await h.core.handlers['permission.respond']({ sessionId, requestId: second.requestId, optionId: 'no' });
    await h.waitFor(() => h.state(sessionId).permissions[0]?.title === 'Edit config?', 'the third request');
    const third = h.state(sessionId).permissions[0];
    expect(third).toMatchObject({ toolCallId: 'tc-q', tool: { toolKind: 'edit' } });
    await h.core.handlers['permission.respond']({ sessionId, requestId: third.requestId, optionId: 'yes' });
    await h.waitFor(() => h.agentText(sessionId).includes('Answers:'), 'the agent to report the answers');
    expect(h.agentText(sessionId)).toContain('Answers: yes, no, yes');
  });

  it("an agent terminal's Cancel reaches the agent (terminal/cancel) and its output and exit are shown", async () => {
    const h = v2Core([], 'auto');
    const sessionId = await h.newSession('v2');
    await h.send(sessionId, 'terminal 8000');
    await h.waitFor(() => h.state(sessionId).terminals['term-1']?.output.includes('✓') === true, 'terminal output');
    expect(h.state(sessionId).terminals['term-1']).toMatchObject({ command: 'npm run watch', cancellable: true, exited: false });
    expect(h.state(sessionId).terminals['term-1'].output).toBe('watching… ✓\r\n');
    await h.core.handlers['terminal.cancel']({ sessionId, terminalId: 'term-1' });
    await h.waitFor(() => h.state(sessionId).terminals['term-1']?.exited === true, 'the terminal to stop');
    expect(h.state(sessionId).terminals['term-1'].output).toContain('stopped');
    expect(h.state(sessionId).terminals['term-1'].signal).toBe('SIGTERM');
    await h.waitFor(() => h.lastStop(sessionId) !== undefined, 'the turn to end');
    expect(h.tool(sessionId, 'tc-t')?.status).toBe('canceled');
  });

  it("a tool call's Cancel reaches the agent (tool_call/cancel): the call ends cancelled and loses the offer", async () => {
    const h = v2Core([], 'auto');
    const sessionId = await h.newSession('v2');
    await h.send(sessionId, 'canceltool');
    await h.waitFor(() => h.tool(sessionId, 'tc-c')?.capabilities !== undefined, 'the cancellable call');
    await h.core.handlers['tool.cancel']({ sessionId, toolCallId: 'tc-c' });
    await h.waitFor(() => h.tool(sessionId, 'tc-c')?.status === 'canceled', 'the call to end cancelled');
    expect(h.tool(sessionId, 'tc-c')?.capabilities).toBeUndefined();
    await h.waitFor(() => h.lastStop(sessionId) !== undefined, 'the turn to end');
  });

  it('an idle with error -32000 asks the person to sign in, and the message goes again after signing in', async () => {
    const h = v2Core(['--auth'], 'auto');
    const sessionId = await h.newSession('v2');
    await h.send(sessionId, 'autherror');
    await h.waitFor(() => Boolean(h.state(sessionId).authMethods), 'the sign-in request');
    expect(h.state(sessionId).authMethods?.map((method) => method.id)).toContain('fixture-login');
    expect(h.state(sessionId).status).toBe('waiting');
    expect(h.eventsOf(sessionId, 'turn.started')).toHaveLength(1);
    await h.core.handlers['auth.start']({ sessionId, methodId: 'fixture-login' });
    await h.waitFor(() => h.eventsOf(sessionId, 'turn.started').length === 2, 'the message to be sent again');
    expect(h.eventsOf(sessionId, 'turn.started')[1].prompt).toEqual([{ type: 'text', text: 'autherror' }]);
  });

  it('work the agent starts on its own shows as a turn the person did not start', async () => {
    const h = v2Core([], 'auto');
    const sessionId = await h.newSession('v2');
    await h.send(sessionId, 'background');
    await h.waitFor(() => h.agentText(sessionId).includes('The watcher found something.'), 'the agent’s own work');
    await h.waitFor(() => h.state(sessionId).entries.filter((entry) => entry.kind === 'stop').length === 2, 'both turns to end');
    expect(h.eventsOf(sessionId, 'turn.started')).toHaveLength(1);
    expect(h.notices(sessionId).map((notice) => notice.message)).toContain('Fixture v2 started working on its own.');
    expect(h.state(sessionId).status).toBe('idle');
  });

  it('an unknown state counts as busy (shown once), an unknown update is kept, and a future stop reason ends the turn', async () => {
    const h = v2Core([], 'auto');
    const sessionId = await h.newSession('v2');
    await h.send(sessionId, 'unknownstate');
    await h.waitFor(() => h.state(sessionId).entries.some((entry) => entry.kind === 'unknown' && entry.label === 'session state _x_compacting'), 'the state');
    expect(h.state(sessionId).status).toBe('running');
    await h.waitFor(() => h.lastStop(sessionId) !== undefined, 'the turn to end');
    expect(h.state(sessionId).entries.filter((entry) => entry.kind === 'unknown' && entry.label === 'session state _x_compacting')).toHaveLength(1);
    await h.prompt(sessionId, 'unknown');
    expect(h.lastStop(sessionId)?.stopReason).toBe('_x_stop');
    expect(h.state(sessionId).entries.some((entry) => entry.kind === 'unknown' && JSON.stringify(entry.raw).includes('_x_sparkles'))).toBe(true);
  });
});

describe('ACP v2 session setup and options', () => {
  it('MCP servers go in the v2 shape (stdio with its type), and a config option is set by configId with its value type', async () => {
    const log = logFile();
    const h = harnesses.track(
      makeCore(
        [],
        {
          agentOverrides: { v2: { protocol: 'auto' } },
          mcpServers: [
            { name: 'files', command: 'mcp-files', args: ['--root', '/w'], env: { A: '1' } },
            { name: 'remote', type: 'sse', url: 'http://localhost:9/sse', headers: {} },
          ],
        },
        { agents: [{ id: 'v2', name: 'Fixture v2', command: process.execPath, args: [V2_FIXTURE, '--delay', '1', '--log', log] }] },
      ),
    );
    const sessionId = await h.newSession('v2');
    const received = readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as RawObject);
    const setup = received.find((message) => message.method === 'session/new')!.params as RawObject;
    // v2 has no SSE transport: that server is left out.
    expect(setup.mcpServers).toEqual([{ type: 'stdio', name: 'files', command: 'mcp-files', args: ['--root', '/w'], env: [{ name: 'A', value: '1' }] }]);
    expect(h.state(sessionId).configOptions.map((option) => option.id)).toEqual(['model']);
    await h.core.handlers['config.set']({ sessionId, configId: 'model', value: 'smart' });
    const set = readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as RawObject)
      .find((message) => message.method === 'session/set_config_option')!.params as RawObject;
    expect(set).toMatchObject({ configId: 'model', type: 'id', value: 'smart' });
    await h.waitFor(() => valueOf(h.state(sessionId).configOptions[0]) === 'smart', 'the new value');
  });
});

describe('negotiation fallbacks through the session layer', () => {
  it('a router agent with v2 turned off gets a v1 initialize again on the same process, carrying every v1 capability', async () => {
    const log = logFile();
    const h = v2Core(['--v2-off', '--log', log], 'auto');
    const sessionId = await h.newSession('v2');
    const sent = initializes(log);
    expect(sent.map((message) => (message.params as RawObject).protocolVersion)).toEqual([2, 1]);
    expect((sent[0].params as RawObject).info).toEqual(CLIENT_INFO);
    expect((sent[1].params as RawObject).clientCapabilities).toEqual(CLIENT_CAPABILITIES);
    expect((sent[1].params as RawObject).clientInfo).toEqual(CLIENT_INFO);
    expect(h.eventsOf(sessionId, 'session.connected')[0].protocolVersion).toBe(1);
    await h.prompt(sessionId, 'hi');
    expect(h.agentText(sessionId)).toContain('You said: hi');
  });

  it('a v2-only agent set to v1 fails with a message naming both versions and the setting to change', async () => {
    const h = v2Core(['--v2-only'], 'v1');
    const sessionId = await h.newSession('v2');
    const message = h
      .notices(sessionId)
      .map((notice) => notice.message)
      .join('\n');
    expect(message).toContain('Fixture v2 speaks ACP protocol version 2');
    expect(message).toContain('it is set to "v1" (version 1)');
    expect(message).toContain('agentOverrides["v2"].protocol');
    expect(message).not.toContain('Unsupported protocol version');
  });

  it('a v1-only agent set to v2 fails with a message naming both versions and the setting to change', async () => {
    const h = v2Core([], 'auto', 'v2');
    const sessionId = await h.newSession('fixture');
    const message = h
      .notices(sessionId)
      .map((notice) => notice.message)
      .join('\n');
    expect(message).toContain('speaks ACP protocol version 1');
    expect(message).toContain('it is set to "v2" (version 2)');
    expect(message).toContain('Set its protocol to "v1" or "auto"');
  });

  it('an agent that closes the connection when offered v2 is restarted on v1', async () => {
    const log = logFile();
    const h = v2Core(['--close-on-v2', '--log', log], 'auto');
    const sessionId = await h.newSession('v2');
    expect(h.eventsOf(sessionId, 'session.connected')[0].protocolVersion).toBe(1);
    expect(initializes(log).map((message) => (message.params as RawObject).protocolVersion)).toEqual([2, 1]);
    await h.prompt(sessionId, 'still here');
    expect(h.agentText(sessionId)).toContain('You said: still here');
    expect(h.core.state().agents.find((agent) => agent.id === 'v2')?.process).toBe('ready');
  });
});

describe.each(['v1', 'auto'] as const)('a v1-only agent under protocol "%s"', (protocol) => {
  it('streams a turn, asks permission and ends the turn with the prompt’s answer', async () => {
    const h = v2Core([], 'auto', protocol);
    const sessionId = await h.newSession('fixture');
    expect(h.eventsOf(sessionId, 'session.connected')[0].protocolVersion).toBe(1);
    await h.send(sessionId, 'permission');
    const request = await h.waitForPermission(sessionId);
    await h.core.handlers['permission.respond']({ sessionId, requestId: request.requestId, optionId: request.options[0].optionId });
    await h.waitFor(() => h.lastStop(sessionId) !== undefined, 'the turn to end');
    expect(h.eventsOf(sessionId, 'turn.ended')).toHaveLength(1);
    expect(h.state(sessionId).status).toBe('idle');
  });
});

describe('fixture-agent.mjs speaks both versions', () => {
  // The engine tests run their fixture under `auto` to test v2: a silent fallback to v1 would prove nothing.
  it.each([
    ['v1', 1],
    ['auto', 2],
  ] as const)('under "%s" it connects with version %i, and a turn with a permission request ends once', async (protocol, version) => {
    const h = v2Core([], 'v1', protocol, []);
    const sessionId = await h.newSession('fixture');
    expect(h.eventsOf(sessionId, 'session.connected')[0].protocolVersion).toBe(version);
    expect(h.core.state().agents.find((agent) => agent.id === 'fixture')?.protocolVersion).toBe(version);
    await h.send(sessionId, 'permission');
    const request = await h.waitForPermission(sessionId);
    expect(request.tool.title).toBe('Edit src/app.ts');
    await h.core.handlers['permission.respond']({ sessionId, requestId: request.requestId, optionId: 'allow-once' });
    await h.waitFor(() => h.lastStop(sessionId) !== undefined, 'the turn to end');
    expect(h.agentText(sessionId)).toContain('Permission granted (allow-once)');
    // v1 ends the turn with the prompt's answer, v2 with the first idle state after running.
    const ends = h.eventsOf(sessionId, 'turn.ended').length + h.eventsOf(sessionId, 'session.state').filter((event) => event.turnEnded).length;
    expect(ends).toBe(1);
    expect(h.eventsOf(sessionId, 'turn.ended')).toHaveLength(version === 1 ? 1 : 0);
    expect(h.state(sessionId).status).toBe('idle');
  });

  it("a scenario that needs the client's terminal fails clearly under v2", async () => {
    const h = v2Core([], 'v1', 'auto', []);
    const sessionId = await h.newSession('fixture');
    await h.prompt(sessionId, 'terminal');
    expect(h.lastStop(sessionId)).toMatchObject({ stopReason: 'error', error: 'scenario terminal needs ACP v1' });
  });
});

describe('the same conversation in ACP v1 and v2', () => {
  it('the v1 fixture under v1 and the v2 fixture under auto leave the same transcript, plan and status', async () => {
    const h = v2Core([], 'auto', 'v1');
    const visible = (sessionId: string) => {
      const state = h.state(sessionId);
      return {
        status: state.status,
        plan: state.plan,
        // Entry ids (`session:seq`) differ: v2 sends more events (state snapshots).
        // The turn's id is random per turn.
        entries: state.entries.map(({ id: _id, ...entry }) => (entry.kind === 'user' ? { ...entry, turnId: 'the turn' } : entry)),
      };
    };
    const v1Session = await h.newSession('fixture');
    const v2Session = await h.newSession('v2');
    await h.prompt(v1Session, 'tour');
    await h.prompt(v2Session, 'tour');
    expect(h.state(v1Session).protocolVersion).toBe(1);
    expect(h.state(v2Session).protocolVersion).toBe(2);
    expect(h.agentText(v2Session)).toContain('**Summary:**');
    expect(visible(v2Session)).toEqual(visible(v1Session));
  });
});
