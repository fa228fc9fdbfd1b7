import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostToken } from './hostToken';

const mode = (file: string) => statSync(file).mode & 0o777;

describe.skipIf(process.platform === 'win32')('hostToken (file modes are POSIX)', () => {
  it('keeps one token per data folder in a file only its owner can read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'acp-token-'));
    const token = hostToken(dir);
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect(mode(join(dir, 'host-token'))).toBe(0o600);
    expect(hostToken(dir)).toBe(token);
  });

  it('replaces a too-short token and makes a readable token file owner-only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'acp-token-'));
    const file = join(dir, 'host-token');
    writeFileSync(file, 'short', { mode: 0o644 });
    const token = hostToken(dir);
    expect(token).not.toBe('short');
    expect(readFileSync(file, 'utf8')).toBe(token);
    expect(mode(file)).toBe(0o600);

    // An existing good token is kept, and its file tightened.
    writeFileSync(file, 'x'.repeat(40));
    chmodSync(file, 0o644);
    expect(hostToken(dir)).toBe('x'.repeat(40));
    expect(mode(file)).toBe(0o600);
  });
});
