import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent, SessionEventBody } from '../../src-shared/session/events';
import { reduceSession } from '../../src-shared/session/reducer';
import type { SessionState } from '../../src-shared/session/state';
import { describeProtocols, makeCore } from '../testing/coreHarness';
import { damageNotice, EventLog, readEventLog } from './eventLog';
import { decodeV1Update } from '../acp/decode/v1Update';

function tempLog(): string {
  return join(mkdtempSync(join(tmpdir(), 'acp-log-')), 'sessions', 's_test.jsonl');
}

let seq = 0;
function event(body: SessionEventBody, sessionId = 's_test'): SessionEvent {
  return { ...body, sessionId, seq: ++seq, ts: 1_700_000_000_000 + seq } as SessionEvent;
}

function chunk(text: string): SessionEvent {
  return event(decodeV1Update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } }));
}

describe('EventLog', () => {
  it('appends events as JSON lines, in order, and reads them back', async () => {
    seq = 0;
    const file = tempLog();
    const log = new EventLog(file);
    const first = [event({ kind: 'session.created', agentId: 'a', agentName: 'A', cwd: '/w' }), chunk('one ')];
    log.append(first);
    log.append([]);
    log.append([chunk('two')]);
    log.close();
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines).toHaveLength(4); // three events and the final newline
    expect(lines[3]).toBe('');
    const { events, skipped } = await readEventLog(file);
    expect(skipped).toBe(0);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3]);
  });

  it('is on disk as soon as append returns (synchronous, before the batch is shown)', () => {
    seq = 0;
    const file = tempLog();
    const log = new EventLog(file);
    log.append([event({ kind: 'session.created', agentId: 'a', agentName: 'A', cwd: '/w' })]);
    // No close, no flush: another reader sees it at once (a crash right now would keep it).
    expect(readFileSync(file, 'utf8')).toContain('"session.created"');
    log.close();
  });

  it('skips a torn last line (a crash mid-write) and reports it', async () => {
    seq = 0;
    const file = tempLog();
    const log = new EventLog(file);
    log.append([event({ kind: 'session.created', agentId: 'a', agentName: 'A', cwd: '/w' }), chunk('kept')]);
    log.close();
    const torn = JSON.stringify(chunk('lost')).slice(0, 25);
    appendFileSync(file, torn);
    const { events, skipped } = await readEventLog(file);
    expect(skipped).toBe(1);
    expect(events.map((e) => e.seq)).toEqual([1, 2]);
  });

  it('keeps a torn line isolated when a new run appends after it (repairTornTail)', async () => {
    seq = 0;
    const file = tempLog();
    const before = new EventLog(file);
    before.append([event({ kind: 'session.created', agentId: 'a', agentName: 'A', cwd: '/w' })]);
    before.close();
    appendFileSync(file, '{"kind":"acp.update","sessionId":"s_te'); // the previous run died here
    const after = new EventLog(file);
    after.append([chunk('after restart')]);
    after.append([chunk(' and more')]);
    after.close();
    const text = readFileSync(file, 'utf8');
    expect(text.split('\n')[1]).toBe('{"kind":"acp.update","sessionId":"s_te'); // alone on its line
    const { events, skipped } = await readEventLog(file);
    expect(skipped).toBe(1);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3]);
    const state = reduceSession(undefined, events);
    expect(state.entries.at(-1)).toMatchObject({ kind: 'agent', text: 'after restart and more' });
  });

  it('skips damaged and non-event lines anywhere, and blank lines silently', async () => {
    seq = 0;
    const file = tempLog();
    const log = new EventLog(file);
    log.append([event({ kind: 'session.created', agentId: 'a', agentName: 'A', cwd: '/w' })]);
    log.close();
    appendFileSync(file, '\n[1,2]\n{"no":"seq"}\nnot json\n');
    appendFileSync(file, JSON.stringify(chunk('x')) + '\n');
    const { events, skipped } = await readEventLog(file);
    expect(skipped).toBe(3);
    expect(events).toHaveLength(2);
  });

  it('streams large logs in batches without collecting them when a fold is given', async () => {
    seq = 0;
    const file = tempLog();
    const log = new EventLog(file);
    log.append([event({ kind: 'session.created', agentId: 'a', agentName: 'A', cwd: '/w' })]);
    const many: SessionEvent[] = [];
    for (let i = 0; i < 5000; i++) many.push(chunk(`w${i} `));
    log.append(many);
    log.close();
    const sizes: number[] = [];
    let state: SessionState | undefined;
    const result = await readEventLog(
      file,
      (batch) => {
        sizes.push(batch.length);
        state = reduceSession(state, batch);
      },
      1000,
    );
    expect(result.events).toHaveLength(0); // handed on, not kept
    expect(sizes).toEqual([1000, 1000, 1000, 1000, 1000, 1]);
    expect(state!.entries).toHaveLength(1);
    expect(state!.lastSeq).toBe(5001);
    // Adaptive (the default): batches double, so long logs take few fold steps.
    const adaptive: number[] = [];
    await readEventLog(file, (batch) => adaptive.push(batch.length));
    expect(adaptive).toEqual([1000, 2000, 2001]);
  });

  it('reads a missing log as empty', async () => {
    expect(await readEventLog(join(tmpdir(), 'does-not-exist.jsonl'))).toEqual({ events: [], skipped: 0, unreported: 0, damaged: [] });
  });

  it('handles a log that is only a torn line', async () => {
    const file = tempLog();
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, '{"kind":"sess');
    expect(await readEventLog(file)).toEqual({ events: [], skipped: 1, unreported: 1, damaged: [[1, 1]] });
  });
});

describe('damage notices name the lines they report', () => {
  /** A log of `size` lines where the lines in `bad` are torn, and the notices in `notices` follow. */
  const logWith = (size: number, bad: Set<number>, notices: SessionEventBody[] = []) => {
    seq = 0;
    const file = tempLog();
    mkdirSync(join(file, '..'), { recursive: true });
    const lines: string[] = [];
    for (let line = 1; line <= size; line++) lines.push(bad.has(line) ? '{"torn' : JSON.stringify(chunk(`l${line} `)));
    for (const notice of notices) lines.push(JSON.stringify(event(notice)));
    writeFileSync(file, lines.join('\n') + '\n');
    return file;
  };

  it('a notice written before positions were recorded reports nothing: its damage is reported again, with positions', async () => {
    const legacy: SessionEventBody = {
      kind: 'notice',
      level: 'warning',
      message: "2 damaged line(s) in this session's log were skipped (usually the last line written before a crash).",
    };
    const result = await readEventLog(logWith(6, new Set([2, 3]), [legacy]));
    expect(result).toMatchObject({ skipped: 2, unreported: 2, damaged: [[2, 3]] });
    expect(damageNotice(result.damaged, result.unreported, 's_test.jsonl').message).toBe(
      "2 damaged line(s) in this session's log were skipped: lines 2–3 of s_test.jsonl. The rest of the session is shown.",
    );
  });

  it('past 50 ranges the list is shortened, and still counts as reported until a line up to its end is damaged', async () => {
    const bad = new Set(Array.from({ length: 60 }, (_, i) => 2 * i + 1));
    const first = await readEventLog(logWith(130, bad));
    expect(first).toMatchObject({ skipped: 60, unreported: 60 });
    const notice = damageNotice(first.damaged, first.unreported, 's_test.jsonl');
    expect(notice.message).toMatch(
      /^60 damaged line.*: lines 1, 3, .*, 99, … \(60 ranges in all, the last ending at line 119\) of s_test\.jsonl\. The rest of the session is shown\.$/,
    );
    expect((await readEventLog(logWith(130, bad, [notice]))).unreported).toBe(0);
    // A new damaged line among the unlisted ones: the unlisted ten count as unreported again, with it.
    expect((await readEventLog(logWith(130, new Set([...bad, 110]), [notice]))).unreported).toBe(11);
    expect((await readEventLog(logWith(130, new Set([...bad, 125]), [notice]))).unreported).toBe(1);
    const again = await readEventLog(logWith(130, new Set([...bad, 2]), [notice]));
    expect(again.unreported).toBe(11);
    expect(damageNotice(again.damaged, again.unreported, 's_test.jsonl').message).toMatch(
      /^61 damaged line.*: lines 1–3, 5, .*\(11 of them not reported before\)/,
    );
  });
});

describeProtocols('replay equals live state', () => {
  const cores: { dispose(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(cores.splice(0).map((c) => c.dispose()));
  });

  it('folding the log gives the state the live reducer produced, for a varied session', async () => {
    const h = makeCore(['--config', '--commands']);
    cores.push(h.core);
    const sessionId = await h.newSession();
    for (const text of ['hello there', 'tools', 'plan', 'thought', 'usage', 'unknown', 'many 300']) await h.prompt(sessionId, text);
    await h.core.handlers['config.set']({ sessionId, configId: 'web', value: true });
    h.core.sessions.flush();
    const live = h.core.sessions.sessions.get(sessionId)!.state;
    let folded: SessionState | undefined;
    const { skipped } = await readEventLog(
      h.core.sessions.logFile(sessionId),
      (batch) => {
        folded = reduceSession(folded, batch);
      },
      7,
    );
    expect(skipped).toBe(0);
    expect(folded).toEqual(live);
    // …and equals what the window built from the batches it was sent.
    await h.waitFor(() => h.state(sessionId).lastSeq === live.lastSeq, 'window to catch up');
    expect(h.state(sessionId)).toEqual(live);
  });
});
