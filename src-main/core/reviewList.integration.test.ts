import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeCore } from '../testing/coreHarness';
import { writeLongLog } from '../testing/longLog';

/** The Review panel's regression guard (issue 23): what main answers it is bounded by the files, not the length. */
describe('the Review list of a long session', () => {
  it('answers the same few bytes for a 50,000-entry session as for a 5,000-entry one', async () => {
    // The regression guard counts bytes, not time: before, the panel picked every tool call with
    // a diff (12,500 entries, about 5 MB of JSON, at 50,000 entries).
    const bytes = async (entries: number) => {
      const h = makeCore();
      mkdirSync(join(h.dataDir, 'sessions'), { recursive: true });
      writeLongLog(join(h.dataDir, 'sessions', 's_long.jsonl'), entries, 's_long');
      await h.core.handlers['session.open']({ sessionId: 's_long' });
      const list = await h.core.handlers['session.review']({ sessionId: 's_long' });
      const file = await h.core.handlers['session.reviewFile']({ sessionId: 's_long', path: list.files[0]!.path });
      await h.dispose();
      return { files: list.files.length, bytes: JSON.stringify(list).length + JSON.stringify(file).length };
    };
    const short = await bytes(5_000);
    const long = await bytes(50_000);
    expect(long.files).toBe(50);
    expect(short.files).toBe(50);
    expect(long.bytes).toBeLessThan(32 * 1024);
    expect(long.bytes).toBeLessThan(short.bytes * 1.25); // longer ids, nothing more
  }, 120_000);
});
