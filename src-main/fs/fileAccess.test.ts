import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isInsideRoots, readTextFile, writeTextFileAtomic } from './fileAccess';

const dir = () => mkdtempSync(join(tmpdir(), 'acp-fs-'));

describe('readTextFile', () => {
  const file = join(dir(), 'lines.txt');
  writeFileSync(file, 'one\ntwo\nthree\nfour\nfive\n');
  it('reads everything without line or limit', () => expect(readTextFile(file)).toBe('one\ntwo\nthree\nfour\nfive\n'));
  it('starts at a 1-based line', () => expect(readTextFile(file, 4)).toBe('four\nfive\n'));
  it('caps the number of lines', () => expect(readTextFile(file, 2, 2)).toBe('two\nthree'));
  it('limit alone starts at line 1', () => expect(readTextFile(file, null, 1)).toBe('one'));
  it('past the end is empty', () => expect(readTextFile(file, 50, 3)).toBe(''));
  it('a missing file throws', () => expect(() => readTextFile(join(dir(), 'nope.txt'))).toThrow(/ENOENT/));
});

describe('writeTextFileAtomic', () => {
  it('creates a file and returns no old text', () => {
    const file = join(dir(), 'new.txt');
    expect(writeTextFileAtomic(file, 'hello')).toEqual({ oldText: null });
    expect(readFileSync(file, 'utf8')).toBe('hello');
  });

  it('replaces a file, returns its old text, keeps its mode, leaves no temporary file', () => {
    const folder = dir();
    const file = join(folder, 'script.sh');
    writeFileSync(file, 'echo old\n');
    chmodSync(file, 0o755);
    expect(writeTextFileAtomic(file, 'echo new\n')).toEqual({ oldText: 'echo old\n' });
    expect(readFileSync(file, 'utf8')).toBe('echo new\n');
    expect(statSync(file).mode & 0o777).toBe(0o755);
    expect(readdirSync(folder)).toEqual(['script.sh']);
  });

  it('a failed write leaves the old file intact and no temporary file behind', () => {
    const folder = dir();
    const file = join(folder, 'keep.txt');
    writeFileSync(file, 'precious');
    expect(() =>
      writeTextFileAtomic(file, 'half-written', () => {
        throw new Error('disk full');
      }),
    ).toThrow('disk full');
    expect(readFileSync(file, 'utf8')).toBe('precious');
    expect(readdirSync(folder)).toEqual(['keep.txt']);
  });

  it('a missing parent folder is an error, not a crash', () => {
    expect(() => writeTextFileAtomic(join(dir(), 'no', 'such', 'file.txt'), 'x')).toThrow(/ENOENT/);
  });

  it('writes through a symlink to its target and keeps the link', () => {
    const folder = dir();
    const target = join(folder, 'real.txt');
    const link = join(folder, 'link.txt');
    writeFileSync(target, 'a');
    symlinkSync(target, link);
    writeTextFileAtomic(link, 'b');
    expect(readFileSync(target, 'utf8')).toBe('b');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });
});

describe('isInsideRoots', () => {
  const root = dir();
  const other = dir();
  mkdirSync(join(root, 'src'));
  symlinkSync(other, join(root, 'escape'));
  it('accepts the root and paths below it, existing or not', () => {
    expect(isInsideRoots(root, [root])).toBe(true);
    expect(isInsideRoots(join(root, 'src', 'new', 'file.ts'), [root])).toBe(true);
  });
  it('refuses relative paths, `..` escapes and symlinks that lead out', () => {
    expect(isInsideRoots('src/file.ts', [root])).toBe(false);
    expect(isInsideRoots(join(root, '..', 'x'), [root])).toBe(false);
    expect(isInsideRoots(join(root, 'escape', 'secret.txt'), [root])).toBe(false);
    expect(isInsideRoots(`${root}-sibling/file`, [root])).toBe(false);
  });
  it('accepts any of several roots', () => expect(isInsideRoots(join(other, 'a'), [root, other])).toBe(true));
});
