import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionEvent, SessionEventBody } from '../../../src-shared/session/events';
import { AUTH_RETRY_NOTE } from '../../../src-shared/acp/error';
import { reduceSession } from '../../../src-shared/session/reducer';
import type { SessionState, ToolCallEntry } from '../../../src-shared/session/state';
import { AgentProcess } from '../../process/agentProcess';
import { CLIENT_CAPABILITIES, CLIENT_INFO } from '../clientSide';
import { negotiate, sendRequest, type Negotiated } from './negotiate';
import type { UpdateDecoder } from './dialect';

const V2_FIXTURE = resolve(import.meta.dirname, '../../../e2e/fixtures/fixture-agent-v2.mjs');
import type { RawObject } from '../../../src-shared/session/raw';

/**
 * The v2 fixture agent driven through the negotiation module and the v2 SDK client, its raw
 * `session/update`s decoded by the v2 dialect and folded by the shared reducer: the whole
 * path the session layer will take, minus the session layer.
 */
class Harness {
  events: SessionEvent[] = [];
  negotiated!: Negotiated;
  acpSessionId = '';
  private decoder!: UpdateDecoder;
  private turnEnds: (() => void)[] = [];
  private seq = 0;
  private requestSeq = 0;

  async start(): Promise<void> {
    let decoder: UpdateDecoder | null = null;
    this.negotiated = await negotiate({
      setting: 'auto',
      agent: { name: 'Fixture v2' },
      start: () => {
        const process = new AgentProcess({ command: globalThis.process.execPath, args: [V2_FIXTURE, '--delay', '1'], env: {} });
        return { ...process.webStreams(), stop: () => process.stop(500) };
      },
      client: CLIENT_INFO,
      capabilities: CLIENT_CAPABILITIES,
      timeoutMs: 10_000,
      tap: {
        incoming: (message) => {
          const m = message as RawObject;
          const params = m.params as RawObject | undefined;
          if (m.method === 'session/update' && params && decoder) {
            for (const body of decoder.decode(String(params.sessionId), params.update as RawObject)) this.add(body);
          }
        },
      },
      buildClient: {
        v2: (app) =>
          app
            .onNotification('session/update', () => {})
            .onRequest('session/request_permission', ({ params }) => {
              const requestId = `r${++this.requestSeq}`;
              this.add({
                kind: 'permission.requested',
                requestId,
                ...this.negotiated.dialect.decodePermissionRequest(params as unknown as RawObject, requestId),
              });
              this.add({ kind: 'permission.resolved', requestId, optionId: 'yes' });
              return { outcome: { outcome: 'selected', optionId: 'yes' } };
            }),
      },
    });
    this.decoder = this.negotiated.dialect.createDecoder();
    decoder = this.decoder;
    this.add({ kind: 'session.created', agentId: 'fx', agentName: 'Fixture', cwd: '/w' });
    const result = (await sendRequest(this.negotiated.connection, 'session/new', { cwd: '/w', mcpServers: [] })) as RawObject;
    const decoded = this.negotiated.dialect.decodeSession(result);
    this.acpSessionId = String(decoded.acpSessionId);
    this.add({
      kind: 'session.connected',
      acpSessionId: this.acpSessionId,
      how: 'new',
      configOptions: decoded.configOptions,
      protocolVersion: this.negotiated.version,
    });
    for (const body of decoded.events) this.add(body);
  }

  add(body: SessionEventBody): void {
    this.events.push({ ...body, sessionId: 's', seq: ++this.seq, ts: Date.now() } as SessionEvent);
    if (body.kind === 'session.state' && body.turnEnded) this.turnEnds.shift()?.();
  }

  get state(): SessionState {
    return reduceSession(undefined, this.events);
  }

  /** Prompts and waits for `count` turn ends (the first idle after running). */
  async prompt(text: string, count = 1, during?: () => Promise<void>): Promise<SessionState> {
    const ends = Array.from({ length: count }, () => new Promise<void>((resolve) => this.turnEnds.push(resolve)));
    const turnId = `t${this.seq}`;
    this.add({ kind: 'turn.started', turnId, prompt: [{ type: 'text', text }] });
    const answer = (await sendRequest(this.negotiated.connection, 'session/prompt', {
      sessionId: this.acpSessionId,
      prompt: [{ type: 'text', text }],
    })) as RawObject;
    expect(this.negotiated.dialect.decodePromptResult(answer)).toMatchObject({ kind: 'accepted', messageId: expect.any(String) });
    await during?.();
    await Promise.all(ends);
    return this.state;
  }

  /** Waits until the folded state satisfies `check`. */
  async until(check: (state: SessionState) => boolean): Promise<void> {
    for (let i = 0; i < 200 && !check(this.state); i++) await new Promise((r) => setTimeout(r, 10));
  }
}

const h = new Harness();
const tool = (state: SessionState, id: string) => state.entries[state.toolIndex[id]] as ToolCallEntry;
const lastTurn = (state: SessionState) => state.entries.slice(state.entries.findLastIndex((e) => e.kind === 'user'));

beforeAll(() => h.start(), 20_000);
afterAll(async () => {
  h.negotiated?.connection.close();
  await h.negotiated?.transport.stop();
});

describe('the v2 fixture agent through the v2 dialect', () => {
  it('connects on v2; inline commands and configId options are in the app shape', () => {
    const state = h.state;
    expect(state.protocolVersion).toBe(2);
    expect(state.commands).toEqual([
      { name: 'plan', description: 'Make a plan', hint: 'what to plan' },
      { name: 'macro', description: 'A command of an unknown type', raw: { type: '_x_macro', name: 'macro', description: 'A command of an unknown type' } },
    ]);
    expect(state.configOptions[0]).toMatchObject({ id: 'model', currentValue: 'fast' });
  });

  it('a turn ends on the first idle after running; repeated idle snapshots add nothing', async () => {
    const state = await h.prompt('echo hello');
    await new Promise((r) => setTimeout(r, 100)); // the two repeated idle snapshots
    const turn = lastTurn(h.state);
    expect(turn.map((e) => e.kind)).toEqual(['user', 'agent', 'stop']);
    expect(turn[1]).toMatchObject({ text: 'You said: echo hello' });
    expect(state.status).toBe('idle');
  });

  it('messages are upserts by messageId: the whole content replaces the streamed chunks', async () => {
    const turn = lastTurn(await h.prompt('upsert'));
    expect(turn.map((e) => e.kind)).toEqual(['user', 'agent', 'thought', 'stop']);
    expect(turn[1]).toMatchObject({ text: 'Final text.', messageId: 'm-up' });
    expect(turn[2]).toMatchObject({ text: 'thinking' });
  });

  it('tool calls: upserts, appended content, null clears, paused, a diff as changes with a git patch, unknown kind and status kept', async () => {
    const seen: string[] = [];
    const state = await h.prompt('tools');
    for (const event of h.events)
      if (event.kind === 'tool.updated' && event.toolCallId === 'tc-1' && typeof event.fields.status === 'string') seen.push(event.fields.status);
    expect(seen).toEqual(['in_progress', 'paused', 'completed']);
    const call = tool(state, 'tc-1');
    expect(call).toMatchObject({ name: 'apply_patch', title: 'Edit two files', toolKind: 'edit', status: 'completed', locations: [] });
    expect(call).not.toHaveProperty('rawInput');
    expect(call.content).toHaveLength(1);
    expect(call.content[0]).toMatchObject({ type: 'diff', patch: { format: 'git_patch' } });
    const diff = call.content[0];
    expect(diff.type === 'diff' && 'changes' in diff ? diff.changes.map((c) => c.operation) : []).toEqual(['modify', 'add', 'delete', 'move', '_x_touch']);
    // The two content chunks were appended before the final content replaced them.
    const appended = h.events.filter((e) => e.kind === 'tool.contentAppended');
    expect(appended).toHaveLength(2);
    expect(tool(state, 'tc-2')).toMatchObject({ toolKind: '_x_kind', status: '_x_status' });
  });

  it('tool_call/cancel on a cancellable call: it ends cancelled and loses the capability', async () => {
    const state = await h.prompt('canceltool', 1, async () => {
      await h.until((s) => Boolean(s.toolIndex['tc-c'] !== undefined && tool(s, 'tc-c').capabilities));
      expect(tool(h.state, 'tc-c').capabilities).toEqual({ cancel: true });
      await sendRequest(h.negotiated.connection, h.negotiated.dialect.methods.cancelToolCall!, { sessionId: h.acpSessionId, toolCallId: 'tc-c' });
    });
    expect(tool(state, 'tc-c')).toMatchObject({ status: 'canceled' });
    expect(tool(state, 'tc-c')).not.toHaveProperty('capabilities');
  });

  it('plans are keyed by planId; an unknown plan type is kept raw', async () => {
    const turn = lastTurn(await h.prompt('plan'));
    const plans = turn.filter((e) => e.kind === 'plan');
    expect(plans.map((p) => p.entries.map((x) => `${x.content}:${x.status}`))).toEqual([['Read:completed', 'Write:pending'], ['Other plan:pending']]);
    expect(turn.find((e) => e.kind === 'unknown')).toMatchObject({ label: 'plan _x_graph' });
  });

  it('permission requests carry title, description and a subject: command, unknown `_x`, tool call', async () => {
    const state = await h.prompt('permission');
    const asked = h.events.filter((e) => e.kind === 'permission.requested');
    expect(asked.slice(-3).map((e) => [e.title, e.subject?.type === 'unknown' ? e.subject.typeName : e.subject?.type])).toEqual([
      ['Run npm test?', 'command'],
      ['Open the pod bay doors?', '_x_door'],
      ['Edit config?', 'tool_call'],
    ]);
    expect(asked.at(-3)).toMatchObject({
      description: 'The tests write to /tmp.',
      toolCallId: 'tc-p',
      subject: { command: 'npm test', cwd: '/w' },
    });
    expect(asked.at(-2)?.subject).toEqual({ type: 'unknown', typeName: '_x_door', raw: { type: '_x_door', door: 'pod bay' } });
    expect(tool(state, 'tc-p').permissionOutcome).toMatchObject({ optionId: 'yes', kind: 'allow_once' });
    expect(lastTurn(state).find((e) => e.kind === 'agent')).toMatchObject({ text: 'Answers: yes, yes, yes' });
    // requires_action was shown as waiting for the person.
    const requires = h.events.findLastIndex((e) => e.kind === 'session.state' && e.state === 'requires_action');
    expect(reduceSession(undefined, h.events.slice(0, requires + 1)).status).toBe('waiting');
  });

  it('agent-owned terminal: base64 output decoded (a split UTF-8 character whole), cancel, exit status', async () => {
    const state = await h.prompt('terminal 5000', 1, async () => {
      await h.until((s) => (s.terminals['term-1']?.output ?? '').includes('✓'));
      expect(h.state.terminals['term-1']).toMatchObject({ owner: 'agent', command: 'npm run watch', cwd: '/w', cancellable: true, exited: false });
      await sendRequest(h.negotiated.connection, h.negotiated.dialect.methods.cancelTerminal!, { sessionId: h.acpSessionId, terminalId: 'term-1' });
    });
    const terminal = state.terminals['term-1'];
    expect(terminal.output).toBe('watching… ✓\r\nstopped\r\n');
    expect(terminal).toMatchObject({ exited: true, signal: 'SIGTERM', cancellable: false });
    expect(tool(state, 'tc-t')).toMatchObject({ status: 'canceled', content: [{ type: 'terminal', terminalId: 'term-1' }] });
  });

  it('an unknown session state counts as busy and is shown once', async () => {
    const states: string[] = [];
    const state = await h.prompt('unknownstate', 1, async () => {
      // The status as folded when the unknown state arrived (the agent goes on to idle by itself).
      await h.until((s) => {
        const seen = s.entries.some((e) => e.kind === 'unknown' && e.label === 'session state _x_compacting');
        if (seen && states.length === 0) states.push(s.status);
        return seen;
      });
    });
    expect(states).toEqual(['running']);
    expect(lastTurn(state).filter((e) => e.kind === 'unknown')).toHaveLength(1);
    expect(state.status).toBe('idle');
  });

  it('an error stop with -32000 ends the turn as a sign-in step (as v1 shows auth_required), not a failure', async () => {
    const state = await h.prompt('autherror');
    expect(lastTurn(state).at(-1)).toMatchObject({ kind: 'stop', stopReason: 'auth_required', error: AUTH_RETRY_NOTE });
    expect(h.events.findLast((e) => e.kind === 'session.state')).toMatchObject({ error: { code: -32000 } });
    expect(state.status).toBe('waiting');
  });

  it('work the agent starts on its own is a turn the person did not start; background work is kept', async () => {
    const state = await h.prompt('background', 2);
    const turn = lastTurn(state);
    expect(turn.map((e) => e.kind)).toEqual(['user', 'agent', 'stop', 'notice', 'agent', 'stop']);
    expect(turn[3]).toMatchObject({ level: 'info', message: 'Fixture started working on its own.' });
    expect(state.background).toEqual([]);
    expect(state.currentTurnId).toBeNull();
  });

  it('unknown update kinds are kept raw; notices and unknown stop reasons are shown', async () => {
    const turn = lastTurn(await h.prompt('unknown'));
    expect(turn.find((e) => e.kind === 'unknown')).toMatchObject({ label: 'update _x_sparkles', raw: { amount: 3 } });
    expect(turn.find((e) => e.kind === 'notice')).toMatchObject({ level: 'warning', message: 'Rate limited: Slowing down.' });
    expect(turn.at(-1)).toMatchObject({ kind: 'stop', stopReason: '_x_stop' });
  });
});
