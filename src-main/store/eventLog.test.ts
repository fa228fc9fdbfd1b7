import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent, SessionEventBody } from '../../src-shared/session/events';
import { reduceSession } from '../../src-shared/session/reducer';
import type { SessionState } from '../../src-shared/session/state';
import { describeProtocols, makeCore } from '../testing/coreHarness';
import { EventLog, readEventLog } from './eventLog';
import { decodeV1Update } from '../../src-shared/acp/v1Update';

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
    expect(await readEventLog(join(tmpdir(), 'does-not-exist.jsonl'))).toEqual({ events: [], skipped: 0, unreported: 0 });
  });

  it('handles a log that is only a torn line', async () => {
    const file = tempLog();
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, '{"kind":"sess');
    expect(await readEventLog(file)).toEqual({ events: [], skipped: 1, unreported: 1 });
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
