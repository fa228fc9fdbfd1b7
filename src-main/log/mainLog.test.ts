import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../errors/errors';
import { logHandlers } from './logHandlers';
import { logDebug, logError, logUnlessMissing, logWarn, openMainLog, readMainLog } from './mainLog';
import { RotatingFile } from './rotatingFile';

describe('the rotating log file', () => {
  it('rotates at the size cap and keeps only the configured number of old files', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'acp-log-')), 'logs', 'main.log');
    const log = new RotatingFile(file, { maxBytes: 100, keep: 2 });
    for (let i = 0; i < 10; i++) log.append(`${String(i).repeat(39)}\n`); // 40 bytes each: two per file
    expect(readFileSync(file, 'utf8')).toBe(`${'8'.repeat(39)}\n${'9'.repeat(39)}\n`);
    expect(readFileSync(`${file}.1`, 'utf8')).toContain('7'.repeat(39));
    expect(readFileSync(`${file}.2`, 'utf8')).toContain('5'.repeat(39));
    expect(existsSync(`${file}.3`)).toBe(false);
  });
});

describe('the main log', () => {
  it('writes <data>/logs/main.log with the level, what was being done, and the stack of a bug (not of a UserError)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'acp-log-'));
    const path = openMainLog(dataDir);
    expect(path).toBe(join(dataDir, 'logs', 'main.log'));
    logError('Reading the catalog', new TypeError('boom'));
    logWarn('Opening a session', new UserError('No session "x".'));
    const text = readFileSync(path, 'utf8');
    expect(text).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z ERROR Reading the catalog: TypeError: boom\n {4}at /m);
    expect(text).toMatch(/WARN Opening a session: No session "x"\.\n$/);

    const read = await logHandlers()['log.read']({});
    expect(read.path).toBe(path);
    expect(read.canOpen).toBe(false);
    expect(read.lines.at(-1)).toMatch(/WARN Opening a session/);
    expect(readMainLog(1).lines).toHaveLength(1);
  });

  it('an expected failure is a DEBUG line; a missing file looked up is no line at all, any other lookup failure is', () => {
    const path = openMainLog(mkdtempSync(join(tmpdir(), 'acp-log-')));
    logDebug('Killing agent process 42', Object.assign(new Error('kill ESRCH'), { code: 'ESRCH' }));
    logUnlessMissing('Looking for /nowhere/node', Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' }));
    logUnlessMissing('Looking for /locked/node', Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' }));
    const lines = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .filter((line) => /^\d{4}-/.test(line));
    expect(lines.map((line) => line.replace(/^\S+ /, ''))).toEqual([
      expect.stringMatching(/^DEBUG Killing agent process 42: Error: kill ESRCH/),
      expect.stringMatching(/^DEBUG Looking for \/locked\/node: Error: EACCES/),
    ]);
  });

  it('opens the file through the host when it can, and says where the file is when it cannot', async () => {
    const path = openMainLog(mkdtempSync(join(tmpdir(), 'acp-log-')));
    const opened: string[] = [];
    await expect(logHandlers(async (file) => (opened.push(file), ''))['log.open']({})).resolves.toEqual({ ok: true });
    expect(opened).toEqual([path]);
    await expect(logHandlers(async () => 'no viewer')['log.open']({})).rejects.toThrow(`Cannot open ${path}: no viewer`);
    await expect(logHandlers()['log.open']({})).rejects.toThrow(`This host cannot open files; the log is at ${path}.`);
  });
});
