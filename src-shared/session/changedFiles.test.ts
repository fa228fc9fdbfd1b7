import { describe, expect, it } from 'vitest';
import type { ToolContent } from './content';
import type { TranscriptEntry } from './state';
import { changedFiles } from './changedFiles';

const tool = (id: string, status: string, content: ToolContent[]): TranscriptEntry => ({
  kind: 'tool',
  id,
  toolCallId: id,
  title: id,
  toolKind: 'edit',
  status,
  content,
  locations: [],
});
const write = (id: string, path: string, oldText: string | null, newText: string): TranscriptEntry => ({ kind: 'file', id, path, oldText, newText });

describe('changedFiles (the Review panel)', () => {
  it('lists each file once, from the first old text to the latest new text; skips failed calls', () => {
    const entries: TranscriptEntry[] = [
      tool('a', 'completed', [{ type: 'diff', path: '/w/a.ts', oldText: 'one', newText: 'two' }]),
      tool('b', 'failed', [{ type: 'diff', path: '/w/b.ts', oldText: 'x', newText: 'y' }]),
      tool('c', 'completed', [{ type: 'diff', path: '/w/a.ts', oldText: 'two', newText: 'three' }]),
      tool('d', 'completed', [{ type: 'diff', path: '/w/gone.ts', oldText: 'bye', newText: '', deleted: true }]),
      write('f', '/w/new.txt', null, 'hi'),
    ];
    const disk = { '/w/a.ts': 'three', '/w/gone.ts': null };
    expect(changedFiles({ entries, files: { '/w/other.txt': { oldText: 'o', newText: 'p' } } }, disk)).toEqual([
      { path: '/w/a.ts', oldText: 'one', newText: 'three', deleted: false, source: 'diff', changes: 2, needsDisk: false },
      { path: '/w/gone.ts', oldText: 'bye', newText: '', deleted: true, source: 'diff', changes: 1, needsDisk: false },
      { path: '/w/new.txt', oldText: null, newText: 'hi', deleted: false, source: 'write', changes: 1, needsDisk: false },
      { path: '/w/other.txt', oldText: 'o', newText: 'p', deleted: false, source: 'write', changes: 1, needsDisk: false },
    ]);
  });

  it('ACP v2: a diff given as file changes and a git patch lists each file with the texts of its hunks', () => {
    const patch = [
      'diff --git a/w/a.txt b/w/a.txt',
      '--- a/w/a.txt',
      '+++ b/w/a.txt',
      '@@ -1,2 +1,2 @@',
      ' one',
      '-two',
      '+TWO',
      'diff --git a/w/b.txt b/w/b.txt',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/w/b.txt',
      '@@ -0,0 +1 @@',
      '+hello',
      '',
    ].join('\n');
    const entries: TranscriptEntry[] = [
      tool('a', 'completed', [
        {
          type: 'diff',
          changes: [
            { operation: 'modify', path: '/w/a.txt' },
            { operation: 'add', path: '/w/b.txt' },
            { operation: '_x_touch', path: '/w/c.txt' },
          ],
          patch: { format: 'git_patch', text: patch },
        },
      ]),
    ];
    // The patch's lines end with newlines, as the files on disk do.
    const disk = { '/w/a.txt': 'one\nTWO\n', '/w/b.txt': 'hello\n' };
    expect(changedFiles({ entries, files: {} }, disk)).toEqual([
      { path: '/w/a.txt', oldText: 'one\ntwo\n', newText: 'one\nTWO\n', deleted: false, source: 'diff', changes: 1, needsDisk: false },
      { path: '/w/b.txt', oldText: null, newText: 'hello\n', deleted: false, source: 'diff', changes: 1, needsDisk: false },
    ]);
  });

  it('Qwen: a new file\'s write and the tool\'s diff of it (old text "") are one change to a new file', () => {
    const content = 'line one\nline two\n';
    const entries: TranscriptEntry[] = [
      tool('q1', 'completed', [{ type: 'diff', path: '/w/new.md', oldText: '', newText: content }]),
      write('w1', '/w/new.md', null, content),
    ];
    const [file] = changedFiles({ entries, files: {} });
    expect(file).toMatchObject({ oldText: null, newText: content, changes: 1, deleted: false });
    // The write first and the diff after: the same.
    const [again] = changedFiles({ entries: [entries[1], entries[0]], files: {} });
    expect(again).toMatchObject({ oldText: null, newText: content, changes: 1 });
  });

  it('Copilot CLI / OpenCode: a snippet diff is a hunk of the file, and the file on disk settles the whole text', () => {
    const before = 'say hello\nand goodbye\n';
    const after = 'say HELLO\nand goodbye\n';
    const entries: TranscriptEntry[] = [tool('c1', 'completed', [{ type: 'diff', path: '/w/hello.txt', oldText: 'hello', newText: 'HELLO' }])];
    // Before the panel has read the file, it says it must.
    expect(changedFiles({ entries, files: {} })[0]).toMatchObject({ needsDisk: true });
    expect(changedFiles({ entries, files: {} }, { '/w/hello.txt': after })[0]).toMatchObject({ oldText: before, newText: after, changes: 1, needsDisk: false });
    // After a write of the whole file, a snippet applies to the known text.
    const written: TranscriptEntry[] = [write('w', '/w/hello.txt', before, before.replace('goodbye', 'bye')), ...entries];
    expect(changedFiles({ entries: written, files: {} })[0]).toMatchObject({ oldText: before, newText: 'say HELLO\nand bye\n', changes: 2, needsDisk: false });
  });
  it('OpenCode 1.18: a file the agent wrote itself and then again through the client (a write that changed nothing) is still a new file, and that write is no change', () => {
    const p = '/w/hello.txt';
    const entries: TranscriptEntry[] = [
      tool('t1', 'completed', [{ type: 'diff', path: p, oldText: '', newText: 'hello\n' }]),
      write('f1', p, 'hello\n', 'hello\n'),
      tool('t2', 'completed', [
        { type: 'content', content: { type: 'text', text: 'Edit applied successfully.' } },
        { type: 'diff', path: p, oldText: 'hello', newText: 'HELLO' },
      ]),
      write('f2', p, 'HELLO\n', 'HELLO\n'),
    ];
    expect(changedFiles({ entries, files: {} }, { [p]: 'HELLO\n' })).toEqual([
      { path: p, oldText: null, newText: 'HELLO\n', deleted: false, source: 'diff', changes: 2, needsDisk: false },
    ]);
  });

  it('a file missing on disk that no diff deleted keeps its diff as sent (not shown as deleted)', () => {
    const entries: TranscriptEntry[] = [tool('m', 'completed', [{ type: 'diff', path: '/w/moved.ts', oldText: 'a\nb\n', newText: 'a\nB\n' }])];
    expect(changedFiles({ entries, files: {} }, { '/w/moved.ts': null })).toEqual([
      { path: '/w/moved.ts', oldText: 'a\nb\n', newText: 'a\nB\n', deleted: false, source: 'diff', changes: 1, needsDisk: true },
    ]);
  });
});
