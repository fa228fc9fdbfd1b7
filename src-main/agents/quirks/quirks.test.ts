import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { disposer, makeCore } from '../../testing/coreHarness';

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
