import { describe, expect, it } from 'vitest';
import { notAbsoluteReason } from './absolutePath';

describe('notAbsoluteReason (ACP requires absolute paths)', () => {
  it('on POSIX only paths from / are absolute; Windows forms are relative there', () => {
    for (const path of ['/', '/home/a/x.txt', '/a/../b']) expect(notAbsoluteReason(path, 'linux'), path).toBeNull();
    for (const path of ['x', './x', '../x', '..\\x', 'C:foo', 'C:\\foo', '~/x', '']) expect(notAbsoluteReason(path, 'darwin'), path).toMatch(/relative|empty/);
  });

  it('on Windows a path names its drive or server; drive-relative and rooted paths are refused', () => {
    for (const path of ['C:\\Users\\a\\x.txt', 'c:/x', '\\\\server\\share\\x', '//server/share/x']) expect(notAbsoluteReason(path, 'win32'), path).toBeNull();
    for (const path of ['x', '..\\x', '.\\x', 'C:foo', 'C:', '']) expect(notAbsoluteReason(path, 'win32'), path).toMatch(/relative|empty/);
    for (const path of ['\\x', '/x']) expect(notAbsoluteReason(path, 'win32'), path).toBe('it names no drive (like C:\\) or server');
  });
});
