import * as nodeFs from 'node:fs';
import { mkdirSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeCore } from '../testing/coreHarness';
import { writeLongLog } from '../testing/longLog';

afterEach(() => {
  vi.restoreAllMocks();
  syncBuiltinESMExports();
});

/**
 * Host memory (issue 23): a session opened while it is still being restored (the page opens the
 * tab the host is restoring at start) was folded twice at once, a second whole state in memory.
 */
describe('opening a session that is being restored', () => {
  it('folds its log once and gives both the same session', async () => {
    const h = makeCore();
    // The history's start-up pass over the logs is done before the log exists.
    await h.core.handlers['app.state']({});
    await new Promise((resolve) => setTimeout(resolve, 200));
    mkdirSync(join(h.dataDir, 'sessions'), { recursive: true });
    const file = join(h.dataDir, 'sessions', 's_twice.jsonl');
    writeLongLog(file, 2_000, 's_twice');
    // Each fold reads the log once (from its snapshot's end, or whole): the reads count the folds.
    const reads = vi.spyOn((nodeFs as unknown as { default: typeof nodeFs }).default, 'createReadStream');
    syncBuiltinESMExports();
    await Promise.all([h.core.handlers['session.open']({ sessionId: 's_twice' }), h.core.handlers['session.open']({ sessionId: 's_twice' })]);
    expect(reads.mock.calls.filter(([path]) => path === file)).toHaveLength(1);
    const window = await h.core.handlers['session.window']({ sessionId: 's_twice' });
    expect(window.total).toBe(2_000);
    await h.dispose();
  });
});
