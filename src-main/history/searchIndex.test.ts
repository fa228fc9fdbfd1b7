import { existsSync, mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionEvent, SessionEventBody } from '../../src-shared/session/events';
import { reduceSession } from '../../src-shared/session/reducer';
import type { SessionState } from '../../src-shared/session/state';
import { chunkText, SearchIndex, snippet } from './searchIndex';
import { decodeV1Update } from '../acp/decode/v1Update';

function session(sessionId: string, bodies: SessionEventBody[]): SessionState {
  const events = bodies.map((body, i) => ({ ...body, sessionId, seq: i + 1, ts: 1000 + i }) as SessionEvent);
  return reduceSession(undefined, events);
}

const created: SessionEventBody = { kind: 'session.created', agentId: 'a', agentName: 'A', cwd: '/w' };
const say = (text: string): SessionEventBody => decodeV1Update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
const ask = (text: string, turnId = 't1'): SessionEventBody => ({ kind: 'turn.started', turnId, prompt: [{ type: 'text', text }] });

describe('SearchIndex', () => {
  it('finds words from prompts, replies and tool titles, one hit per entry, with a snippet', () => {
    const index = new SearchIndex(mkdtempSync(join(tmpdir(), 'acp-search-')));
    const state = session('s1', [
      created,
      ask('Why does the flamingo parser crash?'),
      say('The flamingo parser '),
      say('crashes because of a null byte.'),
      decodeV1Update({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Read parser.ts', kind: 'read', status: 'completed' }),
      { kind: 'turn.ended', turnId: 't1', stopReason: 'end_turn' },
    ]);
    index.indexState(state, 100, true);
    const hits = index.search('flamingo');
    expect(hits.map((h) => h.entryId).sort()).toEqual(['s1:2', 's1:3']);
    expect(hits.find((h) => h.entryId === 's1:3')!.snippet).toContain('flamingo parser crashes because of a null byte');
    expect(index.search('parser.ts')[0]).toMatchObject({ entryId: 's1:5', kind: 'tool' });
    expect(index.search('flam')).toHaveLength(2); // prefix
    expect(index.search('flamingo byte')).toHaveLength(1); // every term (AND)
    expect(index.search('pelican')).toEqual([]);
  });

  it('indexes a streamed reply once its turn ends (not per chunk), and drops a session', () => {
    const index = new SearchIndex(mkdtempSync(join(tmpdir(), 'acp-search-')));
    const events: SessionEventBody[] = [created, ask('first question')];
    index.indexState(session('s1', events), 10, false);
    events.push(say('partial answ'));
    index.indexState(session('s1', events), 20, false);
    expect(index.search('zeppelin')).toEqual([]);
    events.push(say('er about a zeppelin'));
    index.indexState(session('s1', events), 25, false);
    expect(index.search('first')).toHaveLength(1); // the prompt is finished: found at once
    expect(index.search('zeppelin')).toEqual([]); // the reply still streams: search lags
    events.push({ kind: 'turn.ended', turnId: 't1', stopReason: 'end_turn' });
    index.indexState(session('s1', events), 30, false);
    expect(index.search('zeppelin')).toHaveLength(1);
    expect(index.search('answer')).toHaveLength(1); // the whole word once the chunks joined
    expect(index.documentCount).toBe(2);
    expect(index.indexedLogSize('s1')).toBe(30);
    index.removeSession('s1');
    expect(index.search('zeppelin')).toEqual([]);
    expect(index.indexedSessions()).toEqual([]);
  });

  it('persists to disk and loads again; a corrupt file means an empty index and a reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acp-search-'));
    const index = new SearchIndex(dir, 10_000);
    index.indexState(session('s1', [created, ask('remember the okapi')]), 42, true);
    index.flush();
    const again = new SearchIndex(dir);
    await again.load();
    expect(again.loadError).toBeNull();
    expect(again.indexedLogSize('s1')).toBe(42);
    expect(again.search('okapi')).toHaveLength(1);

    writeFileSync(again.file, readFileSync(again.file, 'utf8').slice(0, 50));
    const broken = new SearchIndex(dir);
    await broken.load();
    expect(broken.loadError).toMatch(/rebuilt/);
    expect(broken.search('okapi')).toEqual([]);
    expect(broken.indexedLogSize('s1')).toBeUndefined();
  });

  it('a missing file is not an error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acp-search-'));
    mkdirSync(join(dir, 'sessions'));
    const index = new SearchIndex(dir);
    await index.load();
    expect(index.loadError).toBeNull();
    expect(index.loaded).toBe(true);
  });

  it('saves after a pause, but at least every maxDelay while changes keep coming', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acp-search-'));
    const index = new SearchIndex(dir, 60, 150);
    const start = Date.now();
    const events: SessionEventBody[] = [created, ask('tick')];
    while (Date.now() - start < 400 && !existsSync(index.file)) {
      events.push(say(' more'));
      index.indexState(session('s1', events), events.length, false);
      await new Promise((r) => setTimeout(r, 20)); // changes every 20 ms: the 60 ms pause never comes
    }
    expect(existsSync(index.file)).toBe(true);
    expect(Date.now() - start).toBeLessThan(300);
    index.flush();
  });

  it('an index that cannot be saved tells the person once, and search keeps working', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acp-search-'));
    writeFileSync(join(dir, 'sessions'), 'a file where the index folder should be');
    const problems: string[] = [];
    const index = new SearchIndex(dir, 10, 50, (message) => problems.push(message));
    index.indexState(session('s1', [created, ask('pelican'), { kind: 'turn.ended', turnId: 't1', stopReason: 'end_turn' }]), 1, true);
    await new Promise((r) => setTimeout(r, 120));
    index.indexState(session('s2', [created, ask('heron'), { kind: 'turn.ended', turnId: 't1', stopReason: 'end_turn' }]), 1, true);
    await new Promise((r) => setTimeout(r, 120));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^The search index could not be saved \(/);
    expect(index.search('heron').map((hit) => hit.sessionId)).toEqual(['s2']);
  });

  it('splits long messages so matches deep inside have their own snippet', () => {
    const long = `${'lorem ipsum '.repeat(1000)}narwhal ${'dolor sit '.repeat(500)}`;
    const chunks = chunkText(long);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.join('')).toBe(long);
    const index = new SearchIndex(mkdtempSync(join(tmpdir(), 'acp-search-')));
    index.indexState(session('s1', [created, ask('q'), say(long), { kind: 'turn.ended', turnId: 't1', stopReason: 'end_turn' }]), 1, true);
    const [hit] = index.search('narwhal');
    expect(hit.entryId).toBe('s1:3');
    expect(hit.snippet).toMatch(/^….*narwhal.*…$/);
  });

  it('snippet centres on the first term and keeps one line', () => {
    expect(snippet('alpha\nbeta gamma', ['gamma'], 6)).toBe('…beta gamma');
  });
});
