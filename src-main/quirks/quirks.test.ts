import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { disposer, makeCore } from '../testing/coreHarness';
import { claudeRootEnv } from './claudeCodeAcp';
import { geminiShellEnv } from './geminiCli';

const harnesses = disposer();
afterEach(() => harnesses.disposeAll());

describe("real agents' wire shapes", () => {
  it('Claude Code: a whole command line in `command` with no args runs through the shell', async () => {
    const h = harnesses.track(makeCore());
    writeFileSync(join(h.workspace, 'hello.txt'), 'hello\n');
    const sessionId = await h.newSession();
    await h.prompt(sessionId, 'claudeshell echo shell-ok > out.txt && cat hello.txt out.txt');
    expect(h.agentText(sessionId)).toMatch(/^Shell exit 0: "hello(\\r)?\\nshell-ok"$/);
    expect(readFileSync(join(h.workspace, 'out.txt'), 'utf8')).toBe('shell-ok\n');
    const [terminal] = Object.values(h.state(sessionId).terminals);
    expect(terminal).toMatchObject({ exited: true, exitCode: 0 });
    expect(terminal.output).not.toContain('execvp');
  });

  it("Codex: output of a terminal the client did not create streams into the app's terminal, with its exit code", async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.prompt(sessionId, 'codexterm 3');
    const terminal = h.state(sessionId).terminals.call_codex_1;
    expect(terminal).toMatchObject({ command: 'echo codex-out', exited: true, exitCode: 3, cwd: h.workspace });
    expect(terminal.output).toBe('codex-out line 1\n\u001b[32mcodex green\u001b[0m\n');
    // Live: each delta is its own output event, recorded after the terminal and before the exit.
    const kinds = h.events.filter((e) => e.sessionId === sessionId && e.kind.startsWith('terminal.')).map((e) => e.kind);
    expect(kinds).toEqual(['terminal.created', 'terminal.output', 'terminal.output', 'terminal.output', 'terminal.exited']);
    expect(h.tool(sessionId, 'call_codex_1')?.content).toEqual([{ type: 'terminal', terminalId: 'call_codex_1' }]);
  });

  it("Codex 0.16: a command whose output is only in the completed update's rawOutput shows that output in a terminal on its card", async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.prompt(sessionId, 'codexrawout 0');
    const terminalId = 'call_codex_raw:output';
    expect(h.tool(sessionId, 'call_codex_raw')?.content).toEqual([{ type: 'terminal', terminalId }]);
    expect(h.state(sessionId).terminals[terminalId]).toMatchObject({
      command: 'echo shell-ok && cat hello.txt',
      output: 'shell-ok\nHELLO\n',
      exited: true,
      exitCode: 0,
    });
    // The raw output stays as the agent sent it.
    expect(h.tool(sessionId, 'call_codex_raw')?.rawOutput).toMatchObject({ aggregated_output: 'shell-ok\nHELLO\n' });
    // A failed command keeps its exit code.
    const failed = await h.newSession();
    await h.prompt(failed, 'codexrawout 1');
    expect(h.state(failed).terminals[terminalId]).toMatchObject({ exited: true, exitCode: 1, output: expect.stringContaining('No such file') });
  });

  it('Gemini: a file missing inside the workspace reads as empty, so its write tool can create it (other agents still get the error)', async () => {
    const h = harnesses.track(makeCore([], {}, { agents: [{ id: 'gemini', name: 'Gemini CLI' }] }));
    const gemini = await h.newSession('gemini');
    await h.prompt(gemini, 'read hello.txt');
    expect(h.agentText(gemini)).toBe('Read: ""');
    const other = await h.newSession('fixture');
    await h.prompt(other, 'read hello.txt');
    expect(h.agentText(other)).toContain('Read failed: Cannot read');
  });

  it("Gemini 0.27: a diff's path relative to the workspace is the workspace's file (the Review panel listed hello.txt twice); other agents' diffs are kept as sent", async () => {
    const h = harnesses.track(makeCore([], {}, { agents: [{ id: 'gemini', name: 'Gemini CLI' }] }));
    const gemini = await h.newSession('gemini');
    await h.prompt(gemini, 'geminirelative');
    const absolute = join(h.workspace, 'hello.txt');
    expect(h.tool(gemini, 'gm_1')?.content).toEqual([{ type: 'diff', path: absolute, oldText: '', newText: 'hello\n' }]);
    const writes = h.state(gemini).entries.filter((e) => e.kind === 'file');
    expect(writes.map((e) => e.kind === 'file' && e.path)).toEqual([absolute]);
    const other = await h.newSession('fixture');
    await h.prompt(other, 'geminirelative other.txt');
    expect(h.tool(other, 'gm_1')?.content).toMatchObject([{ type: 'diff', path: 'other.txt' }]);
  });

  it('Claude adapters started by an app running as root get IS_SANDBOX=1 (else they exit with "bypass_root"); a normal user, other agents and a set value are left alone', () => {
    const npx = { command: 'npx', args: ['@zed-industries/claude-code-acp@0.16.2'], env: {} };
    expect(claudeRootEnv('claude-code-acp', npx, true, {})).toEqual({ IS_SANDBOX: '1' });
    expect(claudeRootEnv('my-claude', { command: '/x/node_modules/.bin/claude-agent-acp', args: [], env: {} }, true, {})).toEqual({ IS_SANDBOX: '1' });
    expect(claudeRootEnv('claude-code-acp', npx, false, {})).toEqual({});
    expect(claudeRootEnv('claude-code-acp', { ...npx, env: { IS_SANDBOX: '0' } }, true, {})).toEqual({});
    expect(claudeRootEnv('claude-code-acp', npx, true, { IS_SANDBOX: '' })).toEqual({});
    expect(claudeRootEnv('gemini', { command: 'gemini', args: ['--acp'], env: {} }, true, {})).toEqual({});
  });

  it('Gemini is started without its own pty for shell commands (GEMINI_PTY_INFO=child_process), else its ACP layer drops their output; a set value and other agents are left alone', async () => {
    expect(geminiShellEnv('gemini', { env: {} }, {})).toEqual({ GEMINI_PTY_INFO: 'child_process' });
    expect(geminiShellEnv('gemini', { env: { GEMINI_PTY_INFO: 'node-pty' } }, {})).toEqual({});
    expect(geminiShellEnv('gemini', { env: {} }, { GEMINI_PTY_INFO: '' })).toEqual({});
    expect(geminiShellEnv('qwen-code', { env: {} }, {})).toEqual({});
    // What the app really starts Gemini with.
    const h = harnesses.track(makeCore([], {}, { agents: [{ id: 'gemini', name: 'Gemini CLI', env: { OTHER: '1' } }] }));
    expect(h.core.agents.launchSpec('gemini')?.env).toMatchObject({ GEMINI_PTY_INFO: 'child_process', OTHER: '1' });
    expect(h.core.agents.launchSpec('fixture')?.env.GEMINI_PTY_INFO).toBeUndefined();
  });

  it('Gemini: the empty-subject marker "****" is removed from thought chunks (Gemini only)', async () => {
    const h = harnesses.track(makeCore([], {}, { agents: [{ id: 'gemini', name: 'Gemini CLI' }] }));
    const gemini = await h.newSession('gemini');
    await h.prompt(gemini, 'geminithought');
    const thought = h.state(gemini).entries.find((e) => e.kind === 'thought');
    expect(thought).toMatchObject({ text: 'Planning the change. Checking the file.' });
    const other = await h.newSession('fixture');
    await h.prompt(other, 'geminithought');
    expect(h.state(other).entries.find((e) => e.kind === 'thought')).toMatchObject({ text: '****\nPlanning the change.****\n Checking the file.' });
  });
});
