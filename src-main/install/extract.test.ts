import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTar, makeTarGz, makeZip } from '../../e2e/fixtures/registryServer';
import { checkEntryPath, checkLinkTarget, extractArchive, sniffArchive, type ArchiveKind } from './extract';

const work = mkdtempSync(join(tmpdir(), 'acp-extract-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let counter = 0;

/** Writes an archive, extracts it into a fresh folder inside a fresh parent, returns both. */
async function run(data: Buffer, kind?: ArchiveKind) {
  const base = join(work, String(++counter));
  const file = join(work, `${counter}.archive`);
  writeFileSync(file, data);
  const dest = join(base, 'out');
  const sniffed = sniffArchive(file);
  const error = await extractArchive(file, dest, kind ?? sniffed!).then(
    () => null,
    (e: Error) => e,
  );
  return { base, dest, error, sniffed };
}

describe('entry checks', () => {
  it('accepts plain relative names and refuses escaping ones', () => {
    expect(checkEntryPath('a/b/./c')).toEqual({ path: 'a/b/c' });
    expect(checkEntryPath('./')).toEqual({ path: '' });
    expect(checkEntryPath('../x')).toEqual({ error: expect.stringContaining('..') });
    expect(checkEntryPath('a/../../x')).toEqual({ error: expect.stringContaining('..') });
    expect(checkEntryPath('a/../b')).toEqual({ error: expect.stringContaining('..') });
    expect(checkEntryPath('/etc/passwd')).toEqual({ error: 'is an absolute path' });
    expect(checkEntryPath('C:/Windows/x')).toEqual({ error: 'is an absolute path' });
    expect(checkEntryPath('a\\..\\..\\x')).toEqual({ error: 'contains a backslash' });
  });

  it('checks link targets against the link’s own folder', () => {
    expect(checkLinkTarget('bin/tool', '../lib/tool.js', 'symlink')).toBeNull();
    expect(checkLinkTarget('tool', '../lib/tool.js', 'symlink')).toMatch(/outside/);
    expect(checkLinkTarget('a/b/c', '../../../x', 'symlink')).toMatch(/outside/);
    expect(checkLinkTarget('x', '/etc/passwd', 'symlink')).toMatch(/absolute/);
    expect(checkLinkTarget('deep/h', 'lib/x', 'hardlink')).toBeNull();
    expect(checkLinkTarget('h', '../x', 'hardlink')).toMatch(/outside/);
  });
});

describe('extractArchive: zip', () => {
  it('extracts files, folders, modes and in-folder links', async () => {
    const zip = await makeZip([
      { name: 'bin/', dir: true },
      { name: 'bin/tool', data: '#!/bin/sh\necho hi\n', mode: 0o100755 },
      { name: 'lib/data.txt', data: 'data' },
      { name: 'bin/data', data: '../lib/data.txt', mode: 0o120777 },
    ]);
    const { dest, error, sniffed } = await run(zip);
    expect(sniffed).toBe('zip');
    expect(error).toBeNull();
    expect(statSync(join(dest, 'bin/tool')).mode & 0o111).not.toBe(0);
    expect(readFileSync(join(dest, 'lib/data.txt'), 'utf8')).toBe('data');
    expect(lstatSync(join(dest, 'bin/data')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dest, 'bin/data'), 'utf8')).toBe('data');
  });

  it('refuses zip-slip and writes nothing outside', async () => {
    const zip = await makeZip(
      [
        { name: 'ok.txt', data: 'ok' },
        { name: 'xx/xx/evil.txt', data: 'pwned' },
      ],
      [['xx/xx/evil.txt', '../../evil.txt']],
    );
    const { base, error } = await run(zip);
    expect(error?.message).toMatch(/refused: the entry "\.\.\/\.\.\/evil\.txt" climbs out of the folder/);
    expect(existsSync(join(base, 'evil.txt'))).toBe(false);
    expect(existsSync(join(work, 'evil.txt'))).toBe(false);
  });

  it('refuses absolute paths', async () => {
    const zip = await makeZip([{ name: 'Xtmp/acp-evil-zip.txt', data: 'pwned' }], [['Xtmp/acp-evil-zip.txt', '/tmp/acp-evil-zip.txt']]);
    const { error } = await run(zip);
    expect(error?.message).toMatch(/"\/tmp\/acp-evil-zip\.txt" is an absolute path/);
    expect(existsSync('/tmp/acp-evil-zip.txt')).toBe(false);
  });

  it('refuses a link pointing outside', async () => {
    const zip = await makeZip([{ name: 'escape', data: '../../../../etc', mode: 0o120777 }]);
    const { dest, error } = await run(zip);
    expect(error?.message).toMatch(/"escape" links outside the folder/);
    expect(existsSync(join(dest, 'escape'))).toBe(false);
  });

  it('reports a damaged zip clearly', async () => {
    const zip = await makeZip([{ name: 'a.txt', data: 'x'.repeat(10_000) }]);
    const { error } = await run(zip.subarray(0, zip.length - 30), 'zip');
    expect(error?.message).toMatch(/not a readable zip archive|damaged/);
  });
});

describe('extractArchive: tar', () => {
  it('extracts .tar.gz with folders, modes and in-folder links', async () => {
    const tgz = makeTarGz([
      { name: 'pkg/', type: 'dir' },
      { name: 'pkg/tool', data: '#!/bin/sh\n', mode: 0o755 },
      { name: 'pkg/lib/v.txt', data: '1.0' },
      { name: 'pkg/current', type: 'symlink', linkname: 'lib/v.txt' },
    ]);
    const { dest, error, sniffed } = await run(tgz);
    expect(sniffed).toBe('tar.gz');
    expect(error).toBeNull();
    expect(statSync(join(dest, 'pkg/tool')).mode & 0o111).not.toBe(0);
    expect(readlinkSync(join(dest, 'pkg/current'))).toBe('lib/v.txt');
    expect(readFileSync(join(dest, 'pkg/current'), 'utf8')).toBe('1.0');
  });

  it('extracts a plain .tar', async () => {
    const { dest, error, sniffed } = await run(makeTar([{ name: 'a.txt', data: 'a' }]));
    expect(sniffed).toBe('tar');
    expect(error).toBeNull();
    expect(readFileSync(join(dest, 'a.txt'), 'utf8')).toBe('a');
  });

  it('refuses ../ entries (tar-slip)', async () => {
    const { base, error } = await run(
      makeTarGz([
        { name: 'ok', data: '' },
        { name: '../../evil.txt', data: 'pwned' },
      ]),
    );
    expect(error?.message).toMatch(/"\.\.\/\.\.\/evil\.txt" climbs out/);
    expect(existsSync(join(base, 'evil.txt'))).toBe(false);
    expect(existsSync(join(base, 'out', 'ok'))).toBe(false);
  });

  it('refuses absolute paths', async () => {
    const { error } = await run(makeTarGz([{ name: '/tmp/acp-evil-tar.txt', data: 'pwned' }]));
    expect(error?.message).toMatch(/is an absolute path/);
    expect(existsSync('/tmp/acp-evil-tar.txt')).toBe(false);
  });

  it('refuses symbolic links pointing outside, relative or absolute', async () => {
    const relativeLink = await run(makeTarGz([{ name: 'escape', type: 'symlink', linkname: '../../../etc' }]));
    expect(relativeLink.error?.message).toMatch(/"escape" links outside the folder \(\.\.\/\.\.\/\.\.\/etc\)/);
    const absoluteLink = await run(makeTarGz([{ name: 'passwd', type: 'symlink', linkname: '/etc/passwd' }]));
    expect(absoluteLink.error?.message).toMatch(/links to the absolute path \/etc\/passwd/);
    const hardLink = await run(makeTarGz([{ name: 'h', type: 'link', linkname: '../outside' }]));
    expect(hardLink.error?.message).toMatch(/"h" links outside/);
  });

  it('refuses a link chain that only escapes once resolved', async () => {
    // `a` → `.` is fine and `a/b` → `..` is lexically `.`, but on disk a/.. is the parent.
    const { error } = await run(
      makeTarGz([
        { name: 'sub/', type: 'dir' },
        { name: 'sub/a', type: 'symlink', linkname: '.' },
        { name: 'sub/b', type: 'symlink', linkname: 'a/../..' },
      ]),
    );
    expect(error?.message).toMatch(/links outside/);
  });

  it('refuses entries written through a link', async () => {
    const { base, error } = await run(
      makeTarGz([
        { name: 'sub/', type: 'dir' },
        { name: 'sub/a', type: 'symlink', linkname: '.' },
        { name: 'sub/b', type: 'symlink', linkname: 'a/../..' },
        { name: 'sub/b/evil.txt', data: 'pwned' },
      ]),
    );
    expect(error?.message).toMatch(/"sub\/b\/evil.txt" would be written through a link/);
    expect(existsSync(join(base, 'evil.txt'))).toBe(false);
  });

  it('refuses devices', async () => {
    const tar = makeTar([{ name: 'ok', data: '' }]);
    // Turn the entry into a character device ('3') and fix the checksum.
    tar[156] = '3'.charCodeAt(0);
    tar.fill(' ', 148, 156);
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += tar[i];
    tar.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8, 'utf8');
    const { error } = await run(tar, 'tar');
    expect(error?.message).toMatch(/CharacterDevice/);
  });

  it('reports a truncated .tar.gz clearly', async () => {
    const tgz = makeTarGz([{ name: 'a', data: 'x'.repeat(200_000) + Math.random() }]);
    const { error } = await run(tgz.subarray(0, Math.floor(tgz.length / 2)), 'tar.gz');
    expect(error?.message).toMatch(/archive/);
  });

  const hasXz = (() => {
    try {
      execFileSync('xz', ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

  it.skipIf(!hasXz)('extracts .tar.xz through the xz tool', async () => {
    const tarFile = join(work, 'x.tar');
    writeFileSync(tarFile, makeTar([{ name: 'x/tool', data: 'hi', mode: 0o755 }]));
    execFileSync('xz', ['-kf', tarFile]);
    const { dest, error, sniffed } = await run(readFileSync(`${tarFile}.xz`));
    expect(sniffed).toBe('tar.xz');
    expect(error).toBeNull();
    expect(readFileSync(join(dest, 'x/tool'), 'utf8')).toBe('hi');
  });
});
