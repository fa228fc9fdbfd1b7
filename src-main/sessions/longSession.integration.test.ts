import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src-shared/session/events';
import { EventLog } from '../store/eventLog';
import { turnEvents, writeLongLog } from '../testing/longLog';
import { foldLog } from './sessionRestore';

/**
 * The regression guard for long sessions: it counts work, not time. Opening a 50,000-entry
 * session again reads only the events written since its snapshot, however long the log is.
 */
describe('opening a 50,000-entry session', () => {
  it('parses the whole log once, then only what was added since', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'acp-long-')), 'sessions', 's_long.jsonl');
    const lastSeq = writeLongLog(file, 50_000, 's_long');
    expect(statSync(file).size).toBeGreaterThan(20_000_000);

    const first = await foldLog(file);
    expect(first!.state.entries).toHaveLength(50_000);
    expect(first!.eventsParsed).toBe(lastSeq); // no snapshot yet: every event, once

    const again = await foldLog(file);
    expect(again!.eventsParsed).toBe(0);
    expect(again!.state.entries).toHaveLength(50_000);

    // A turn more (10 events), as a live session appends it.
    const log = new EventLog(file);
    log.append(turnEvents(12_500).map((body, i) => ({ ...body, sessionId: 's_long', seq: lastSeq + 1 + i, ts: i }) as SessionEvent));
    log.close();
    const after = await foldLog(file);
    expect(after!.eventsParsed).toBe(10);
    expect(after!.state.entries).toHaveLength(50_004);
    expect(after!.state.lastSeq).toBe(lastSeq + 10);
  }, 120_000);
});
