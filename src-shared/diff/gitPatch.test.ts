import { describe, expect, it } from 'vitest';
import { findFilePatch, GAP_MARK, parseGitPatch } from './gitPatch';

const PATCH = [
  'diff --git a/w/a.txt b/w/a.txt',
  'index 1111111..2222222 100644',
  '--- a/w/a.txt',
  '+++ b/w/a.txt',
  '@@ -1,3 +1,3 @@',
  ' one',
  '-two',
  '+TWO',
  ' three',
  '@@ -10,2 +10,2 @@',
  ' ten',
  '-eleven',
  '+ELEVEN',
  '\\ No newline at end of file',
  'diff --git a/w/b.txt b/w/b.txt',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/w/b.txt',
  '@@ -0,0 +1,2 @@',
  '+hello',
  '+world',
  'diff --git a/w/c.txt b/w/c.txt',
  'deleted file mode 100644',
  '--- a/w/c.txt',
  '+++ /dev/null',
  '@@ -1 +0,0 @@',
  '-gone',
  'diff --git a/w/d.txt b/w/e.txt',
  'similarity index 100%',
  'rename from w/d.txt',
  'rename to w/e.txt',
  'diff --git a/logo.png b/logo.png',
  'Binary files a/logo.png and b/logo.png differ',
  '',
].join('\n');

describe('parseGitPatch', () => {
  const files = parseGitPatch(PATCH);

  it('splits a patch into one section per file, with both sides of each hunk', () => {
    expect(files.map((f) => [f.oldPath, f.newPath])).toEqual([
      ['w/a.txt', 'w/a.txt'],
      [null, 'w/b.txt'],
      ['w/c.txt', null],
      ['w/d.txt', 'w/e.txt'],
      ['logo.png', 'logo.png'],
    ]);
    expect(files[0]).toMatchObject({
      // Each line ends with a newline unless the patch says it does not (`\ No newline at end of file`).
      oldText: `one\ntwo\nthree\n${GAP_MARK}\nten\neleven\n`,
      newText: `one\nTWO\nthree\n${GAP_MARK}\nten\nELEVEN`,
      added: 2,
      removed: 2,
      hunks: 2,
    });
    expect(files[1]).toMatchObject({ oldText: null, newText: 'hello\nworld\n', added: 2 });
    expect(files[2]).toMatchObject({ oldText: 'gone\n', newText: null, removed: 1 });
    expect(files[3]).toMatchObject({ hunks: 0, added: 0 });
    expect(files[4]).toMatchObject({ binary: true, hunks: 0 });
    expect(files[0].text.split('\n')[0]).toBe('diff --git a/w/a.txt b/w/a.txt');
  });

  it('finds the section of a change by absolute or relative path, and moves by both paths', () => {
    expect(findFilePatch(files, '/w/a.txt')?.newPath).toBe('w/a.txt');
    expect(findFilePatch(files, '/w/c.txt')?.oldPath).toBe('w/c.txt');
    expect(findFilePatch(files, '/w/e.txt', '/w/d.txt')?.oldPath).toBe('w/d.txt');
    expect(findFilePatch(files, '/w/zzz.txt')).toBeUndefined();
  });

  it('takes a plain unified diff without git headers, and absolute paths as the RFD writes them', () => {
    const [file] = parseGitPatch('--- /home/u/p/x.json\n+++ /home/u/p/x.json\n@@ -1,3 +1,3 @@\n {\n- "debug": false\n+ "debug": true\n }\n');
    expect(file).toMatchObject({
      oldPath: '/home/u/p/x.json',
      newPath: '/home/u/p/x.json',
      oldText: '{\n "debug": false\n}\n',
      newText: '{\n "debug": true\n}\n',
    });
  });
});
