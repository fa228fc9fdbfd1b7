import { describe, expect, it } from 'vitest';
import type { SessionState, TranscriptEntry } from './state';
import { changedFilesOf, hasReportedChanges, NO_DISK } from './changedFilesMemo';

const edit = (n: number): TranscriptEntry => ({
  kind: 'tool',
  id: `e${n}`,
  toolCallId: `c${n}`,
  title: `Edit file${n % 3}.ts`,
  toolKind: 'edit',
  status: 'completed',
  content: [{ type: 'diff', path: `/w/file${n % 3}.ts`, oldText: `v${n}`, newText: `v${n + 1}` }],
  locations: [],
});

/** `entries` whose element reads are counted: what the Review panel walks to show a tab. */
function counted(entries: TranscriptEntry[]): { entries: TranscriptEntry[]; reads: () => number } {
  let reads = 0;
  const proxy = new Proxy(entries, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { entries: proxy, reads: () => reads };
}

describe('the Review panel on a tab shown again (issue 23)', () => {
  it('lists the changed files of a state it has seen without walking its entries again', () => {
    const { entries, reads } = counted(Array.from({ length: 300 }, (_, n) => edit(n)));
    const files = {};
    const first = changedFilesOf(entries, files, NO_DISK);
    expect(first.map((f) => [f.path, f.changes])).toEqual([
      ['/w/file0.ts', 100],
      ['/w/file1.ts', 100],
      ['/w/file2.ts', 100],
    ]);
    const walked = reads();
    expect(walked).toBeGreaterThanOrEqual(300);
    // The view mounted again: the same state, and disk texts equal to the ones read before.
    const disk = { '/w/file0.ts': 'v298', '/w/file1.ts': null };
    const withDisk = changedFilesOf(entries, files, disk);
    expect(withDisk.find((f) => f.path === '/w/file0.ts')?.newText).toBe('v298');
    const afterDisk = reads();
    expect(changedFilesOf(entries, files, NO_DISK)).toBe(first);
    expect(changedFilesOf(entries, files, { '/w/file1.ts': null, '/w/file0.ts': 'v298' })).toBe(withDisk);
    expect(reads()).toBe(afterDisk);
  });

  it('a new turn (a new state) is listed with its change', () => {
    const entries = [edit(0), edit(1)];
    const before = changedFilesOf(entries, {}, NO_DISK);
    const after = changedFilesOf([...entries, edit(5)], {}, NO_DISK);
    expect(before.map((f) => f.path)).toEqual(['/w/file0.ts', '/w/file1.ts']);
    expect(after.map((f) => [f.path, f.newText])).toEqual([
      ['/w/file0.ts', 'v1'],
      ['/w/file1.ts', 'v2'],
      ['/w/file2.ts', 'v6'],
    ]);
  });

  it('whether a session has changes to review is worked out once per state', () => {
    const { entries, reads } = counted([{ kind: 'user', id: 'u', content: [] } as unknown as TranscriptEntry, edit(1)]);
    const state = { entries, files: {}, toolIndex: { c1: 1 } } as unknown as SessionState;
    expect(hasReportedChanges(state)).toBe(true);
    const walked = reads();
    expect(hasReportedChanges(state)).toBe(true);
    expect(reads()).toBe(walked);
    expect(hasReportedChanges({ entries: [], files: {}, toolIndex: {} } as unknown as SessionState)).toBe(false);
    expect(hasReportedChanges(undefined)).toBe(false);
  });

  it('lists the tool calls once for the states a stream makes, which share their tool index', () => {
    // Listing a long session's tool index for each streamed batch cost 3 ms at 12,500 tool calls.
    let listed = 0;
    const toolIndex = new Proxy(Object.fromEntries(Array.from({ length: 300 }, (_, n) => [`c${n}`, n])), {
      ownKeys(target) {
        listed++;
        return Reflect.ownKeys(target);
      },
    });
    const entries = Array.from({ length: 300 }, (_, n) => ({ ...edit(n), content: [] }) as TranscriptEntry);
    const states = Array.from({ length: 5 }, () => ({ entries: entries.slice(), files: {}, toolIndex }) as unknown as SessionState);
    expect(states.map((state) => hasReportedChanges(state))).toEqual([false, false, false, false, false]);
    expect(listed).toBe(1);
    // A batch that gave one tool call a diff: the same index, and the change is seen.
    const withDiff = { ...states[4], entries: [...entries.slice(0, 299), edit(299)] };
    expect(hasReportedChanges(withDiff)).toBe(true);
    expect(listed).toBe(1);
  });
});

describe('the Review list while a long session streams (issue 23)', () => {
  const chunk = (n: number): TranscriptEntry => ({ kind: 'agent', id: `m${n}`, text: `reply ${n}`, blocks: [] });

  it('is not computed again for a batch that changed no diff or write, and is for one that did', () => {
    const base = Array.from({ length: 300 }, (_, n) => (n % 2 ? edit(n) : chunk(n)));
    const files = {};
    const first = changedFilesOf(base, files, NO_DISK);
    // A stream's next batches: new entry lists (the reducer copies the list), the same diffs.
    const streamed = [...base, chunk(1000)];
    expect(changedFilesOf(streamed, files, NO_DISK)).toBe(first);
    const more = [...streamed.slice(0, -1), { ...(streamed.at(-1) as TranscriptEntry) }];
    expect(changedFilesOf(more, files, NO_DISK)).toBe(first);
    // A new edit, or an edit that failed after all: computed again.
    const edited = [...streamed, edit(301)];
    const again = changedFilesOf(edited, files, NO_DISK);
    expect(again).not.toBe(first);
    expect(again.find((f) => f.path === '/w/file1.ts')?.changes).toBe(first.find((f) => f.path === '/w/file1.ts')!.changes + 1);
    const failed = edited.map((entry) => (entry === base[1] ? { ...entry, status: 'failed' } : entry)) as TranscriptEntry[];
    expect(changedFilesOf(failed, files, NO_DISK).find((f) => f.path === '/w/file1.ts')?.changes).toBe(
      again.find((f) => f.path === '/w/file1.ts')!.changes - 1,
    );
  });
});
