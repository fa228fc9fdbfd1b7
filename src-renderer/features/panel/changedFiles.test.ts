import { describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../../src-shared/session/state';
import { changedFiles } from './changedFiles';

const tool = (id: string, status: string, content: Record<string, unknown>[]): TranscriptEntry => ({
  kind: 'tool',
  id,
  toolCallId: id,
  title: id,
  toolKind: 'edit',
  status,
  content,
  locations: [],
});

describe('changedFiles', () => {
  it('lists each file once, from the first old text to the latest new text; skips failed calls', () => {
    const entries: TranscriptEntry[] = [
      tool('a', 'completed', [{ type: 'diff', path: '/w/a.ts', oldText: 'one', newText: 'two' }]),
      tool('b', 'failed', [{ type: 'diff', path: '/w/b.ts', oldText: 'x', newText: 'y' }]),
      tool('c', 'completed', [{ type: 'diff', path: '/w/a.ts', oldText: 'two', newText: 'three' }]),
      tool('d', 'completed', [{ type: 'diff', path: '/w/gone.ts', oldText: 'bye', newText: '', deleted: true }]),
      { kind: 'file', id: 'f', path: '/w/new.txt', oldText: null, newText: 'hi' },
    ];
    expect(changedFiles({ entries, files: { '/w/other.txt': { oldText: 'o', newText: 'p' } } })).toEqual([
      { path: '/w/a.ts', oldText: 'one', newText: 'three', deleted: false, source: 'diff', changes: 2 },
      { path: '/w/gone.ts', oldText: 'bye', newText: '', deleted: true, source: 'diff', changes: 1 },
      { path: '/w/new.txt', oldText: null, newText: 'hi', deleted: false, source: 'write', changes: 1 },
      { path: '/w/other.txt', oldText: 'o', newText: 'p', deleted: false, source: 'write', changes: 1 },
    ]);
  });
});
