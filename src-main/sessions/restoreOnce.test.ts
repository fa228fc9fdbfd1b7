import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { makeCore } from '../testing/coreHarness';
import { writeLongLog } from '../testing/longLog';
import * as restore from './sessionRestore';

vi.mock('./sessionRestore', async (original) => {
  const actual = await original<typeof import('./sessionRestore')>();
  return { ...actual, foldLog: vi.fn(actual.foldLog) };
});

/**
 * Host memory (issue 23): a session opened while it is still being restored (the page opens the
 * tab the host is restoring at start) was folded twice at once, a second whole state in memory.
 */
describe('opening a session that is being restored', () => {
  it('folds its log once and gives both the same session', async () => {
    const h = makeCore();
    // The history's start-up pass over the logs is done before the log exists.
    await h.core.handlers['app.state']();
    await new Promise((resolve) => setTimeout(resolve, 200));
    mkdirSync(join(h.dataDir, 'sessions'), { recursive: true });
    writeLongLog(join(h.dataDir, 'sessions', 's_twice.jsonl'), 2_000, 's_twice');
    const folds = vi.mocked(restore.foldLog);
    folds.mockClear();
    await Promise.all([h.core.handlers['session.open']({ sessionId: 's_twice' }), h.core.handlers['session.open']({ sessionId: 's_twice' })]);
    expect(folds.mock.calls.filter(([file]) => file.endsWith('s_twice.jsonl'))).toHaveLength(1);
    const window = await h.core.handlers['session.window']({ sessionId: 's_twice' });
    expect(window.total).toBe(2_000);
    await h.dispose();
  });
});
