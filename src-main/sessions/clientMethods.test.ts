import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { reduceSession } from '../../src-shared/session/reducer';
import { describeProtocols, disposer, makeCore } from '../testing/coreHarness';

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

// v1 only: the client file system is gone in ACP v2.
describe('fs/read_text_file and fs/write_text_file', () => {
  it('reads inside the workspace, honouring line and limit; a missing file is an error for the agent', async () => {
    const h = harnesses.track(makeCore());
    writeFileSync(join(h.workspace, 'README.md'), 'line1\nline2\nline3\n');
    const sessionId = await h.newSession();
    await h.prompt(sessionId, 'read README.md 2 1');
    expect(h.agentText(sessionId)).toBe('Read: "line2"');
    await h.prompt(sessionId, 'read missing.md');
    expect(h.agentText(sessionId)).toContain('Read failed: Cannot read');
    expect(h.state(sessionId).permissions).toEqual([]);
  });

  it('writes atomically inside the workspace and records the diff', async () => {
    const h = harnesses.track(makeCore());
    const file = join(h.workspace, 'notes.txt');
    writeFileSync(file, 'old text\n');
    const sessionId = await h.newSession();
    await h.prompt(sessionId, 'write notes.txt');
    expect(readFileSync(file, 'utf8')).toBe('written by the fixture\n');
    expect(h.eventsOf(sessionId, 'file.written')).toMatchObject([{ path: file, oldText: 'old text\n', newText: 'written by the fixture\n' }]);
    expect(h.state(sessionId).files[file]).toEqual({ oldText: 'old text\n', newText: 'written by the fixture\n' });
    await h.prompt(sessionId, 'write no/such/dir/x.txt');
    expect(h.agentText(sessionId)).toContain('Write failed: Cannot write');
  });

  it('outside the workspace the person is asked; a refusal reaches the agent as an error', async () => {
    const h = harnesses.track(makeCore());
    const outside = mkdtempSync(join(tmpdir(), 'acp-outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'top secret');
    const sessionId = await h.newSession();
    await h.send(sessionId, `read ${join(outside, 'secret.txt')}`);
    let ask = await h.waitForPermission(sessionId);
    expect(ask.tool).toMatchObject({
      toolKind: 'read',
      title: expect.stringContaining('outside the workspace'),
      locations: [{ path: join(outside, 'secret.txt') }],
    });
    await h.core.handlers['permission.respond']({ sessionId, requestId: ask.requestId, optionId: 'allow' });
    await h.waitFor(() => h.agentText(sessionId).includes('Read: "top secret"'), 'read allowed');
    await h.send(sessionId, `write ${join(outside, 'new.txt')}`);
    ask = await h.waitForPermission(sessionId);
    await h.core.handlers['permission.respond']({ sessionId, requestId: ask.requestId, optionId: 'reject' });
    await h.waitFor(() => h.agentText(sessionId).includes('Write failed'), 'write refused');
    expect(h.agentText(sessionId)).toContain('refused access');
    expect(existsSync(join(outside, 'new.txt'))).toBe(false);
  });

  it('outside the workspace is refused without asking when settings say so', async () => {
    const h = harnesses.track(makeCore([], { outsideWorkspace: 'deny' }));
    const sessionId = await h.newSession();
    await h.prompt(sessionId, 'read /etc/hostname');
    expect(h.agentText(sessionId)).toContain('outside the session');
    expect(h.eventsOf(sessionId, 'permission.requested')).toEqual([]);
  });
});

// ACP requires absolute paths; a relative one would otherwise be resolved against the app's own folder.
describe('relative paths in client methods', () => {
  /** Ends the turn as a person would: every question the app asks (there should be none) is allowed. */
  const promptAllowingAll = async (h: ReturnType<typeof makeCore>, sessionId: string, text: string) => {
    const before = h.state(sessionId).entries.filter((e) => e.kind === 'stop').length;
    await h.send(sessionId, text);
    await h.waitFor(() => {
      for (const ask of h.state(sessionId).permissions)
        void h.core.handlers['permission.respond']({ sessionId, requestId: ask.requestId, optionId: 'allow' }).catch(() => {});
      return h.state(sessionId).entries.filter((e) => e.kind === 'stop').length > before;
    }, `turn "${text}" to end`);
  };

  it("fs/read_text_file with a relative path is refused -32602 without asking; the app's own files are never read", async () => {
    const h = harnesses.track(makeCore());
    writeFileSync(join(h.workspace, 'package.json'), '{"name":"the-workspace"}');
    const appPackage = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { name: string };
    const sessionId = await h.newSession();
    for (const path of ['package.json', './package.json', '../package.json', '..\\x', 'C:foo', 'C:\\Windows\\win.ini', '']) {
      await promptAllowingAll(h, sessionId, `readraw ${path}`);
      const answer = h.agentText(sessionId).split('\n').at(-1)!;
      expect(answer, path).toMatch(/^Read failed: error -32602 .*absolute path/);
      expect(answer, path).not.toContain(appPackage.name);
    }
    expect(h.eventsOf(sessionId, 'permission.requested')).toEqual([]);
  });

  it('fs/write_text_file with a relative path is refused -32602 without asking, and writes nowhere', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    const name = `relative-write-${process.pid}.txt`;
    try {
      for (const path of [name, `.\\${name}`, `C:${name}`]) {
        await promptAllowingAll(h, sessionId, `writeraw ${path}`);
        expect(h.agentText(sessionId).split('\n').at(-1), path).toMatch(/^Write failed: error -32602 .*absolute path/);
      }
      expect(existsSync(join(process.cwd(), name))).toBe(false);
      expect(existsSync(join(h.workspace, name))).toBe(false);
      expect(h.eventsOf(sessionId, 'permission.requested')).toEqual([]);
      expect(h.eventsOf(sessionId, 'file.written')).toEqual([]);
    } finally {
      for (const stray of [name, `.\\${name}`, `C:${name}`]) rmSync(join(process.cwd(), stray), { force: true });
    }
  });

  it("terminal/create with a relative cwd is refused -32602; no command runs in the app's folder", async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    for (const cwd of ['.', 'src-main', '..\\x', 'C:foo']) {
      await h.prompt(sessionId, `termcwd ${cwd}`);
      expect(h.agentText(sessionId).split('\n').at(-1), cwd).toMatch(/^Terminal failed: error -32602 .*absolute path/);
    }
    expect(h.eventsOf(sessionId, 'terminal.created')).toEqual([]);
    // An absolute cwd still works, and a terminal with no cwd runs in the session's folder.
    await h.prompt(sessionId, `termcwd ${h.workspace}`);
    expect(h.agentText(sessionId).split('\n').at(-1)).toBe(`Terminal ran in ${realpathSync(h.workspace)} (exit 0).`);
  });
});

// v1 only: client terminals are gone in ACP v2 (terminals belong to the agent).
describe('terminal/*', () => {
  it('create, live output, wait_for_exit, output, release: shown in the session and kept after release', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.prompt(sessionId, 'terminal');
    const [created] = h.eventsOf(sessionId, 'terminal.created');
    expect(created).toMatchObject({ command: 'sh', cwd: h.workspace });
    expect(h.eventsOf(sessionId, 'terminal.output').length).toBeGreaterThan(0);
    const terminal = h.state(sessionId).terminals[created.terminalId];
    expect(terminal).toMatchObject({ exited: true, exitCode: 0, released: true });
    expect(terminal.output).toContain('green');
    expect(terminal.output).toContain('done');
    expect(h.agentText(sessionId)).toMatch(/Exit code 0; output had \d+ characters/);
    const tool = h.state(sessionId).entries.find((e) => e.kind === 'tool');
    expect(tool).toMatchObject({ content: [{ type: 'terminal', terminalId: created.terminalId }], status: 'completed' });
  });

  it('outputByteLimit keeps the end of the output, cut at a UTF-8 character boundary', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.prompt(sessionId, 'termlimit 7');
    // 'aé€😀' x3: the last 7 bytes are '€😀' (3 + 4).
    expect(h.agentText(sessionId)).toBe('Limited output "€😀" truncated=true exit=0');
    await h.prompt(sessionId, 'termlimit 6');
    expect(h.agentText(sessionId)).toContain('Limited output "😀" truncated=true');
  });

  it('kill: exit status carries the signal; env and args reach the command; released terminals are gone for the agent', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.prompt(sessionId, 'termkill');
    expect(h.agentText(sessionId)).toMatch(/Killed: code=null signal=SIG(HUP|TERM|KILL) output="started yes" afterRelease=error -32002/);
    const [created] = h.eventsOf(sessionId, 'terminal.created');
    expect(h.state(sessionId).terminals[created.terminalId]).toMatchObject({ exited: true, released: true, exitCode: null });
    expect(h.state(sessionId).terminals[created.terminalId].output).toContain('started yes');
  });

  it('a terminal still running is killed when its session closes', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.prompt(sessionId, 'termleave');
    const [created] = h.eventsOf(sessionId, 'terminal.created');
    await h.waitFor(() => /\d+/.test(h.state(sessionId).terminals[created.terminalId]?.output ?? ''), 'shell pid');
    const pid = Number(/(\d+)/.exec(h.state(sessionId).terminals[created.terminalId].output)![1]);
    expect(alive(pid)).toBe(true);
    await h.core.handlers['session.close']({ sessionId });
    await h.waitFor(() => !alive(pid), 'terminal process to be killed', 5000);
  });

  it('tool content naming a terminal the client never created is shown from _meta, never an error', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.prompt(sessionId, 'ghostterminal');
    expect(h.tool(sessionId, 'gt_1')).toMatchObject({
      status: 'completed',
      content: [{ type: 'terminal', terminalId: 'never-created' }],
      meta: { terminal_output: 'output the agent kept itself' },
    });
    expect(h.notices(sessionId)).toEqual([]);
    expect(h.lastStop(sessionId)).toMatchObject({ stopReason: 'end_turn' });
  });
});

describeProtocols('elicitation', (protocol) => {
  it('form mode: accept with content (checked against the schema first), decline', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.send(sessionId, 'elicit');
    let pending = await h.waitForElicitation(sessionId);
    expect(pending.request).toMatchObject({ mode: 'form', message: 'Tell me about your project', sessionId: h.state(sessionId).acpSessionId });
    const answer = (content: Record<string, unknown>) =>
      h.core.handlers['elicitation.respond']({ sessionId, requestId: pending.requestId, action: 'accept', content });
    await expect(answer({ stars: 4 })).rejects.toThrow('"Project name" is required.');
    await expect(answer({ name: 'acme', stars: 9 })).rejects.toThrow('"Stars" must be at most 5.');
    await expect(answer({ name: 'acme', language: 'cobol' })).rejects.toThrow('"Language" must be one of ts, rust, go.');
    await expect(answer({ name: 'acme', tags: ['web', 'x'] })).rejects.toThrow('"Tags" may only contain web, cli, lib.');
    await answer({ name: 'acme', stars: 4, private: true, tags: ['cli'] });
    await h.waitFor(() => h.agentText(sessionId).includes('Elicitation accept'), 'accept');
    expect(h.agentText(sessionId)).toContain('Elicitation accept: {"name":"acme","stars":4,"private":true,"tags":["cli"]}');
    expect(h.eventsOf(sessionId, 'elicitation.resolved')).toMatchObject([{ action: 'accept', content: { name: 'acme' } }]);

    await h.send(sessionId, 'elicit');
    await h.waitFor(() => h.state(sessionId).elicitations.length === 1, 'second');
    pending = h.state(sessionId).elicitations[0];
    await h.core.handlers['elicitation.respond']({ sessionId, requestId: pending.requestId, action: 'decline' });
    await h.waitFor(() => h.agentText(sessionId).includes('Elicitation decline'), 'decline');
    await expect(h.core.handlers['elicitation.respond']({ sessionId, requestId: pending.requestId, action: 'cancel' })).rejects.toThrow(/no longer waiting/);
  });

  it('a form field of an unknown type is passed through as asked', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.send(sessionId, 'elicitbad');
    const pending = await h.waitForElicitation(sessionId);
    expect(pending.request.mode === 'form' ? pending.request.requestedSchema : null).toEqual({
      type: 'object',
      properties: { blob: { type: 'x_future_type', title: 'Future field' } },
    });
    await h.core.handlers['elicitation.respond']({ sessionId, requestId: pending.requestId, action: 'cancel' });
    await h.waitFor(() => h.agentText(sessionId).includes('Elicitation cancel'), 'cancel');
  });

  // The fixture completes `el_unknown`, then `el_done` twice: only the first `el_done` counts.
  it('url mode: accept is consent without content; elicitation/complete reaches only its own session, once', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    const other = await h.newSession();
    await h.send(sessionId, 'elicitcomplete');
    const pending = await h.waitForElicitation(sessionId);
    expect(pending.request).toMatchObject({ mode: 'url', url: 'https://example.com/connect', elicitationId: 'el_done' });
    await h.core.handlers['elicitation.respond']({ sessionId, requestId: pending.requestId, action: 'accept' });
    await h.waitFor(() => h.agentText(sessionId).includes('URL elicitation accept'), 'accept');
    await h.waitFor(() => h.eventsOf(sessionId, 'elicitation.completed').length === 1, 'completion');
    expect(h.eventsOf(sessionId, 'elicitation.completed')).toMatchObject([{ elicitationId: 'el_done' }]);
    expect(h.eventsOf(other, 'elicitation.completed')).toEqual([]);
  });

  // v1 only: a v2 prompt is answered at once, so no session/prompt request is pending to scope a question to.
  it.runIf(protocol === 'v1')('a request-scoped elicitation (requestId of our session/prompt) is routed to that session', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.send(sessionId, 'elicitrequest');
    const pending = await h.waitForElicitation(sessionId);
    expect(pending.request).toMatchObject({ message: 'Request-scoped question', requestId: expect.anything() });
    await h.core.handlers['elicitation.respond']({ sessionId, requestId: pending.requestId, action: 'accept', content: { ok: true } });
    await h.waitFor(() => h.agentText(sessionId).includes('Request elicitation accept: {"ok":true}'), 'answer');
  });

  it('an unknown mode is answered -32602, kept raw in the events and shown generically', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.prompt(sessionId, 'elicitfuture');
    expect(h.agentText(sessionId)).toBe('Future elicitation: error -32602');
    const [rejected] = h.eventsOf(sessionId, 'acp.rejected');
    expect(rejected).toMatchObject({ method: 'elicitation/create', params: { mode: 'x_future_mode', hologram: { x: 1 } }, error: { code: -32602 } });
    expect(h.state(sessionId).entries.some((e) => e.kind === 'unknown' && JSON.stringify(e.raw).includes('x_future_mode'))).toBe(true);
    expect(h.state(sessionId).elicitations).toEqual([]);
  });

  it('cancelling the turn answers a waiting elicitation with `cancel`', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.send(sessionId, 'elicit');
    const pending = await h.waitForElicitation(sessionId);
    await h.core.handlers['session.cancel']({ sessionId });
    await h.waitFor(() => h.lastStop(sessionId) !== undefined, 'turn end');
    expect(h.eventsOf(sessionId, 'elicitation.resolved')).toMatchObject([{ requestId: pending.requestId, action: 'cancel' }]);
  });
});

describeProtocols('session/request_permission', () => {
  it('allow once completes the tool call; reject leaves it failed, never pending after the turn', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.send(sessionId, 'permission');
    let pending = await h.waitForPermission(sessionId);
    expect(pending.tool).toMatchObject({ title: 'Edit src/app.ts', toolKind: 'edit' });
    expect(pending.options.map((o) => o.kind)).toEqual(['allow_once', 'allow_always', 'reject_once', 'reject_always']);
    expect(h.tool(sessionId, pending.toolCallId)).toMatchObject({ status: 'awaiting_permission', rawInput: { edits: 1 } });
    await expect(h.core.handlers['permission.respond']({ sessionId, requestId: pending.requestId, optionId: 'bogus' })).rejects.toThrow(
      /not one of this request's options/,
    );
    await h.core.handlers['permission.respond']({ sessionId, requestId: pending.requestId, optionId: 'allow-once' });
    await h.waitFor(() => h.lastStop(sessionId) !== undefined, 'turn end');
    expect(h.tool(sessionId, pending.toolCallId)).toMatchObject({ status: 'completed', permissionOutcome: { optionId: 'allow-once', kind: 'allow_once' } });
    await expect(h.core.handlers['permission.respond']({ sessionId, requestId: pending.requestId, optionId: 'allow-once' })).rejects.toThrow(
      /no longer waiting/,
    );

    await h.send(sessionId, 'permission');
    await h.waitFor(() => h.state(sessionId).permissions.length === 1, 'second request');
    pending = h.state(sessionId).permissions[0];
    await h.core.handlers['permission.respond']({ sessionId, requestId: pending.requestId, optionId: 'reject-once' });
    await h.waitFor(() => h.state(sessionId).entries.filter((e) => e.kind === 'stop').length === 2, 'turn end');
    expect(h.agentText(sessionId)).toContain('Permission denied (reject-once)');
    const open = h.state(sessionId).entries.filter((e) => e.kind === 'tool' && ['pending', 'in_progress', 'awaiting_permission'].includes(e.status));
    expect(open).toEqual([]);
    expect(h.tool(sessionId, pending.toolCallId)?.status).toBe('failed');
  });

  it('a pending request survives a reload of the window (it is in the log, not only in memory)', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.send(sessionId, 'permission');
    const pending = await h.waitForPermission(sessionId);
    const { events } = await h.core.handlers['session.events']({ sessionId, afterSeq: 0 });
    const fresh = reduceSession(undefined, events);
    expect(fresh.permissions.map((p) => p.requestId)).toEqual([pending.requestId]);
    expect(fresh.status).toBe('waiting');
    await h.core.handlers['permission.respond']({ sessionId, requestId: pending.requestId, optionId: 'allow-once' });
    await h.waitFor(() => h.lastStop(sessionId) !== undefined, 'turn end');
  });

  it('"always" choices are remembered per agent and tool kind, answered automatically, and can be forgotten', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.send(sessionId, 'permission');
    let pending = await h.waitForPermission(sessionId);
    await h.core.handlers['permission.respond']({ sessionId, requestId: pending.requestId, optionId: 'allow-always' });
    await h.waitFor(() => h.lastStop(sessionId) !== undefined, 'turn end');
    const settings = JSON.parse(readFileSync(join(h.dataDir, 'settings.json'), 'utf8')) as { alwaysAllow: Record<string, string>; agents: unknown[] };
    expect(settings.alwaysAllow).toEqual({ 'fixture:edit': 'allow_always' });
    expect(settings.agents).toHaveLength(1);
    expect((await h.core.handlers['permissions.remembered']({})).items).toEqual([
      { key: 'fixture:edit', agentId: 'fixture', toolKind: 'edit', optionKind: 'allow_always' },
    ]);

    await h.prompt(sessionId, 'permission');
    expect(h.agentText(sessionId)).toContain('Permission granted (allow-always)');
    const resolved = h.eventsOf(sessionId, 'permission.resolved').at(-1)!;
    expect(resolved).toMatchObject({ optionId: 'allow-always', reason: 'remembered' });
    const toolCallId = h.eventsOf(sessionId, 'permission.requested').at(-1)!.toolCallId;
    expect(h.tool(sessionId, toolCallId)?.permissionOutcome).toMatchObject({ reason: 'remembered', kind: 'allow_always' });
    // Another kind (execute) is still asked.
    await h.send(sessionId, 'ghostpermission');
    pending = await h.waitForPermission(sessionId);
    await h.core.handlers['permission.respond']({ sessionId, requestId: pending.requestId, optionId: 'no' });
    await h.waitFor(() => h.agentText(sessionId).includes('Ghost answer: no'), 'ghost');

    await h.core.handlers['permissions.forget']({ key: 'fixture:edit' });
    await h.send(sessionId, 'permission');
    pending = await h.waitForPermission(sessionId);
    await h.core.handlers['permission.respond']({ sessionId, requestId: pending.requestId, optionId: 'reject-always' });
    await h.waitFor(() => h.agentText(sessionId).includes('Permission denied (reject-always)'), 'rejected');
    await h.prompt(sessionId, 'permission');
    expect(h.eventsOf(sessionId, 'permission.resolved').at(-1)).toMatchObject({ optionId: 'reject-always', reason: 'remembered' });
  });

  it('a request for a tool call never announced is shown from its own fields', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.send(sessionId, 'ghostpermission');
    const pending = await h.waitForPermission(sessionId);
    expect(h.tool(sessionId, 'ghost_1')).toMatchObject({
      synthetic: true,
      title: 'Run rm -rf build',
      toolKind: 'execute',
      status: 'awaiting_permission',
      rawInput: { command: 'rm -rf build' },
    });
    await h.core.handlers['permission.respond']({ sessionId, requestId: pending.requestId, optionId: 'yes' });
    await h.waitFor(() => h.agentText(sessionId).includes('Ghost answer: yes'), 'answer');
  });

  it('unknown option and tool kinds (which the SDK would reject) are shown raw and can be chosen', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.send(sessionId, 'permfuture');
    const pending = await h.waitForPermission(sessionId);
    expect(pending.options).toEqual([
      { optionId: 'maybe', name: 'Maybe later', kind: '_fixture_maybe' },
      { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'no', name: 'Reject', kind: 'reject_once' },
    ]);
    expect(pending.tool.toolKind).toBe('x_warp');
    expect(h.tool(sessionId, 'pf_1')?.toolKind).toBe('x_warp');
    await h.core.handlers['permission.respond']({ sessionId, requestId: pending.requestId, optionId: 'maybe' });
    await h.waitFor(() => h.agentText(sessionId).includes('Future permission: maybe'), 'answer');
    expect(h.eventsOf(sessionId, 'acp.rejected')).toEqual([]);
  });
});
