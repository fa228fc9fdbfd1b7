import { appendFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src-shared/session/events';
import type { AppCore } from '../core/appCore';
import { makeCore } from '../testing/coreHarness';
import { turnEvents, writeLongLog } from '../testing/longLog';
import { SearchIndex } from './searchIndex';

const cores: AppCore[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((core) => core.dispose()));
});

const ENTRIES = 5_000;
const SESSION = 's_long';
/** The long log's agent, played by the fixture (it resumes any session it is asked to). */
const BENCH_AGENT = { agents: [{ id: 'bench', name: 'Bench Agent', args: ['--resume'] }] };

/** A host on `dataDir` with the long session's tab open and the search worker started and idle. */
async function host(dataDir: string, workspace: string) {
  const h = makeCore([], {}, { ...BENCH_AGENT, dataDir, workspace });
  cores.push(h.core);
  await h.core.ready;
  await h.core.handlers['session.open']({ sessionId: SESSION });
  await h.core.history.search.start();
  await h.core.history.search.idle();
  return h;
}

/** Sends a prompt to the restored session and waits for its turn to end (its stop entry). */
async function promptRestored(core: AppCore, text: string): Promise<void> {
  const stops = () =>
    core.sessions.sessions
      .get(SESSION)!
      .fold()
      .entries.filter((entry) => entry.kind === 'stop').length;
  const before = stops();
  await core.handlers['session.prompt']({ sessionId: SESSION, prompt: [{ type: 'text', text }] });
  const start = Date.now();
  while (stops() === before) {
    if (Date.now() - start > 20_000) throw new Error(`Timed out waiting for the turn "${text}" to end`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** What the restored session's search feed sends the worker for one new message (entry texts). */
async function textsForOneMessage(core: AppCore, text: string): Promise<number> {
  const before = core.history.search.textsSent;
  await promptRestored(core, text);
  // The turn's last events reach the history when they are flushed (then it catches up).
  core.sessions.flush();
  core.history.catchUp();
  await core.history.search.idle();
  return core.history.search.textsSent - before;
}

function longData(): { dataDir: string; workspace: string; logFile: string } {
  const dataDir = mkdtempSync(join(tmpdir(), 'acp-restart-search-'));
  mkdirSync(join(dataDir, 'sessions'), { recursive: true });
  const logFile = join(dataDir, 'sessions', `${SESSION}.jsonl`);
  writeLongLog(logFile, ENTRIES, SESSION);
  return { dataDir, workspace: mkdtempSync(join(tmpdir(), 'acp-ws-')), logFile };
}

/**
 * Issue 23 (round 8): after a restart, the first change to a restored session sent the worker
 * every entry's text (the host had no record of what the saved index held), 5,000 texts here and
 * 50,000 for the bench's sessions. The guard counts the texts posted, not time.
 */
describe('the search feed of a restored session', () => {
  it('sends the worker only the new entries of one message, not the whole session', async () => {
    const { dataDir, workspace } = longData();
    const first = await host(dataDir, workspace);
    expect(first.core.history.search.indexedLogSize(SESSION)).toBeGreaterThan(0);
    await first.core.dispose();

    const again = await host(dataDir, workspace);
    const { core } = again;
    // The index saved at quit reflects the log: nothing is sent at start.
    expect(core.history.search.textsSent).toBe(0);
    const sent = await textsForOneMessage(core, 'about the narwhal');
    // The prompt, the reply, its stop: a handful, whatever the session's length.
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThanOrEqual(10);
    expect(await textsForOneMessage(core, 'and the dugong')).toBeLessThanOrEqual(10);

    const found = async (word: string) => (await core.history.query(word)).map((hit) => hit.sessionId);
    expect(await found('narwhal')).toContain(SESSION);
    expect(await found('dugong')).toContain(SESSION);
    // What the saved index held is still found (the first question of the long log).
    expect(await found('Question 0:')).toContain(SESSION);
  }, 120_000);

  it('a host killed before it saved the index still gets every entry it missed, then sends only new ones', async () => {
    const { dataDir, workspace, logFile } = longData();
    const first = await host(dataDir, workspace);
    const lastSeq = first.core.sessions.sessions.get(SESSION)!.fold().lastSeq;
    await first.core.dispose();
    // A turn written to the log after the index was saved, then `kill -9`: the saved index is stale.
    const ts = Date.UTC(2026, 0, 2);
    const lines = turnEvents(99_999, ' wombat').map((body, i) =>
      JSON.stringify({ ...body, sessionId: SESSION, seq: lastSeq + 1 + i, ts: ts + i } as SessionEvent),
    );
    appendFileSync(logFile, `${lines.join('\n')}\n`);

    const again = await host(dataDir, workspace);
    const { core } = again;
    expect((await core.history.query('wombat')).map((hit) => hit.sessionId)).toContain(SESSION);
    expect(await textsForOneMessage(core, 'about the manatee')).toBeLessThanOrEqual(10);
    expect((await core.history.query('manatee')).map((hit) => hit.sessionId)).toContain(SESSION);
    expect((await core.history.query('wombat')).map((hit) => hit.sessionId)).toContain(SESSION);
  }, 120_000);
});

describe('a change that is only part of a session', () => {
  it('does not make an index that holds nothing of the session claim its log (the next start indexes it whole)', async () => {
    // The saved index of a session was dropped on load (or the index reset) while the host sent
    // it only its newest entry: that entry alone must not pass for the session's index.
    const dir = mkdtempSync(join(tmpdir(), 'acp-search-partial-'));
    const index = new SearchIndex(dir, 60_000);
    await index.load();
    index.indexTexts({ sessionId: 's1', logSize: 5_000, scanned: 3, full: false, ids: ['s1:9'], kinds: ['user'], texts: ['about the narwhal'], present: null });
    await index.idle();
    expect((await index.query('narwhal')).map((hit) => hit.entryId)).toEqual(['s1:9']);
    expect(index.indexedLogSize('s1')).not.toBe(5_000);
    index.flush();

    const next = new SearchIndex(dir);
    await next.load();
    // No log has this size: a pass over the logs indexes the session's whole log.
    expect(next.indexedLogSize('s1')).toBe(-1);
    // A full change then makes it whole and current.
    index.indexTexts({
      sessionId: 's1',
      logSize: 6_000,
      scanned: 4,
      full: true,
      ids: ['s1:1', 's1:9'],
      kinds: ['user', 'user'],
      texts: ['the okapi', 'about the narwhal'],
      present: ['s1:1', 's1:9'],
    });
    await index.idle();
    expect(index.indexedLogSize('s1')).toBe(6_000);
  });
});
