import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planTerminalSpawn } from './shellCommand';
import { Terminal } from './terminalManager';

describe('terminal/create commands', () => {
  it('runs a whole command line sent as `command` with no args (Claude Code) through the shell', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'acp-term-'));
    let shown = '';
    const terminal = new Terminal({ command: 'echo shell-ok > out.txt && cat out.txt', args: [], cwd, env: {} }, (data) => (shown += data));
    const exit = await terminal.exited;
    expect(exit.exitCode).toBe(0);
    expect(shown).toContain('shell-ok');
    expect(shown).not.toContain('execvp');
    expect(readFileSync(join(cwd, 'out.txt'), 'utf8').trim()).toBe('shell-ok');
  });

  it('runs a program with args as given, and a bare program name without a shell', () => {
    expect(planTerminalSpawn('git', ['status', '--short'], 'linux')).toEqual({ file: 'git', args: ['status', '--short'], windowsVerbatimArguments: false });
    expect(planTerminalSpawn('ls', [], 'linux')).toEqual({ file: 'ls', args: [], windowsVerbatimArguments: false });
  });

  it('uses $SHELL -c (else /bin/sh) on POSIX and cmd /c on Windows for a command line', () => {
    expect(planTerminalSpawn('npm test && echo ok', [], 'linux', { SHELL: '/bin/sh' })).toEqual({
      file: '/bin/sh',
      args: ['-c', 'npm test && echo ok'],
      windowsVerbatimArguments: false,
    });
    expect(planTerminalSpawn('ls -la', [], 'darwin', { SHELL: 'not-absolute' }).file).toBe('/bin/sh');
    expect(planTerminalSpawn('dir /b && echo ok', [], 'win32', { ComSpec: 'C:\\Windows\\system32\\cmd.exe' })).toEqual({
      file: 'C:\\Windows\\system32\\cmd.exe',
      args: ['/d', '/s', '/c', '"dir /b && echo ok"'],
      windowsVerbatimArguments: true,
    });
  });

  it('reports a program that cannot start as a failure (non-zero exit), not as success', async () => {
    let shown = '';
    const terminal = new Terminal({ command: '/no/such/program-xyz', args: ['a'], cwd: tmpdir(), env: {} }, (data) => (shown += data));
    const exit = await terminal.exited;
    expect(exit.exitCode).not.toBe(0);
  });
});
