import { describe, expect, it } from 'vitest';
import { planSpawn, quoteForCmd } from './spawnCommand';

describe('planSpawn', () => {
  it('runs commands directly on macOS and Linux, arguments untouched', () => {
    for (const platform of ['darwin', 'linux'] as const) {
      expect(planSpawn('npx', ['-y', '@google/gemini-cli@0.27.3', '--experimental-acp'], platform)).toEqual({
        file: 'npx',
        args: ['-y', '@google/gemini-cli@0.27.3', '--experimental-acp'],
        windowsVerbatimArguments: false,
      });
    }
  });

  it('runs .cmd/.bat shims and bare npx/npm/uvx through cmd.exe on Windows', () => {
    const plan = planSpawn('npx', ['-y', '@zed-industries/claude-code-acp@0.16.0'], 'win32');
    expect(plan).toEqual({
      file: 'cmd.exe',
      args: ['/d', '/s', '/c', '"npx -y @zed-industries/claude-code-acp@0.16.0"'],
      windowsVerbatimArguments: true,
    });
    expect(planSpawn('C:\\Program Files\\nodejs\\npm.CMD', ['exec', 'x'], 'win32').args.at(-1)).toBe('"^"C:\\Program Files\\nodejs\\npm.CMD^" exec x"');
    expect(planSpawn('tool.bat', [], 'win32').file).toBe('cmd.exe');
    expect(planSpawn('uvx', ['agent'], 'win32').file).toBe('cmd.exe');
  });

  it('runs real executables directly on Windows', () => {
    expect(planSpawn('C:\\agents\\codex-acp.exe', ['--acp'], 'win32')).toEqual({
      file: 'C:\\agents\\codex-acp.exe',
      args: ['--acp'],
      windowsVerbatimArguments: false,
    });
    expect(planSpawn('node', ['agent.js'], 'win32').file).toBe('node');
  });
});

describe('quoteForCmd', () => {
  it('leaves plain arguments alone', () => {
    expect(quoteForCmd('--experimental-acp')).toBe('--experimental-acp');
    expect(quoteForCmd('@scope/pkg@1.2.3')).toBe('@scope/pkg@1.2.3');
  });

  it('quotes empty arguments and arguments with spaces', () => {
    expect(quoteForCmd('')).toBe('^"^"');
    expect(quoteForCmd('a b')).toBe('^"a b^"');
  });

  it('escapes embedded quotes and trailing backslashes by CommandLineToArgvW rules', () => {
    expect(quoteForCmd('say "hi"')).toBe('^"say \\^"hi\\^"^"');
    expect(quoteForCmd('C:\\dir with space\\')).toBe('^"C:\\dir with space\\\\^"');
  });

  it('escapes every cmd.exe metacharacter so nothing runs as a second command', () => {
    expect(quoteForCmd('a&calc')).toBe('a^&calc');
    expect(quoteForCmd('x|y')).toBe('x^|y');
    expect(quoteForCmd('%PATH%')).toBe('^%PATH^%');
    expect(quoteForCmd('(a)<b>!c^')).toBe('^(a^)^<b^>^!c^^');
  });
});
