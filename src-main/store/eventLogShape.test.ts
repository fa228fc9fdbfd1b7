import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent, SessionEventBody } from '../../src-shared/session/events';
import type { AppCore } from '../core/appCore';
import { createCore } from '../core/createCore';
import { readEventLog } from './eventLog';
import { validEvent } from './eventSchema';

const cores: AppCore[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.dispose();
});

const ID = 's_shape';
const line = (seq: number, body: SessionEventBody | Record<string, unknown>) => JSON.stringify({ sessionId: ID, seq, ts: 1_700_000_000_000 + seq, ...body });

/** A log with good events around lines of the wrong shape, the way a bug or an editor leaves it. */
function damagedLog(dataDir: string): void {
  mkdirSync(join(dataDir, 'sessions'), { recursive: true });
  const lines = [
    line(1, { kind: 'session.created', agentId: 'fixture', agentName: 'Fixture', cwd: dataDir }),
    line(2, { kind: 'turn.started', turnId: 't1', prompt: [{ type: 'text', text: 'the ocelot question' }] }),
    line(3, { kind: 'acp.update', update: null }),
    line(4, { kind: 'acp.update', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'ocelots nap' } } }),
    line(5, { kind: 'turn.started', turnId: 7, prompt: 'not a list' }),
    line(6, { kind: 'permission.requested', requestId: 'r', toolCall: {}, options: null }),
    '[1,2,3]',
    line(7, { kind: 'turn.ended', turnId: 't1', stopReason: 'end_turn' }),
  ];
  writeFileSync(join(dataDir, 'sessions', `${ID}.jsonl`), lines.join('\n') + '\n');
}

const damageNotices = (core: AppCore) =>
  core.sessions.sessions.get(ID)!.state.entries.filter((entry) => entry.kind === 'notice' && /damaged line/.test(entry.message));

describe('log lines of the wrong shape', () => {
  it('are skipped and counted like torn ones; the session opens with everything else', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'acp-shape-'));
    damagedLog(dataDir);
    const { events, skipped, unreported } = await readEventLog(join(dataDir, 'sessions', `${ID}.jsonl`));
    expect(events.map((event) => event.seq)).toEqual([1, 2, 4, 7]);
    expect(skipped).toBe(4);
    expect(unreported).toBe(4);

    const core = createCore({ dataDir, host: 'browser', defaultCwd: dataDir });
    cores.push(core);
    const session = await core.sessions.restore(ID);
    expect(session).not.toBeNull();
    const texts = session!.state.entries.map((entry) => ('text' in entry ? entry.text : entry.kind));
    expect(texts).toContain('ocelots nap');
    expect(damageNotices(core)).toHaveLength(1);
    expect(damageNotices(core)[0]).toMatchObject({ message: expect.stringMatching(/^4 damaged line/) });
  });

  it('the damage notice is added once, not again on every restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'acp-shape-'));
    damagedLog(dataDir);
    for (let run = 0; run < 3; run++) {
      const core = createCore({ dataDir, host: 'browser', defaultCwd: dataDir });
      await core.sessions.restore(ID);
      core.sessions.flush();
      expect(damageNotices(core), `run ${run}`).toHaveLength(1);
      await core.dispose();
    }
  });

  it('damage that appears before an existing damage notice is still reported, with every damaged line by count and position', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'acp-shape-'));
    damagedLog(dataDir);
    const file = join(dataDir, 'sessions', `${ID}.jsonl`);
    let core = createCore({ dataDir, host: 'browser', defaultCwd: dataDir });
    await core.sessions.restore(ID);
    core.sessions.flush();
    expect(damageNotices(core)[0]).toMatchObject({ message: expect.stringMatching(/^4 damaged line.*lines 3, 5–7\b/) });
    await core.dispose();
    // Later, a good line in the middle (line 2, before the notice) is damaged too.
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[1] = lines[1].slice(0, 40);
    writeFileSync(file, lines.join('\n'));
    for (let run = 0; run < 2; run++) {
      core = createCore({ dataDir, host: 'browser', defaultCwd: dataDir });
      await core.sessions.restore(ID);
      core.sessions.flush();
      const notices = damageNotices(core);
      expect(notices, `run ${run}`).toHaveLength(2);
      expect(notices[1]).toMatchObject({ message: expect.stringMatching(/^5 damaged line.*lines 2–3, 5–7\b.*1 of them not reported before/) });
      await core.dispose();
    }
  });

  it('checks the fields the fold relies on, and lets unknown kinds through to be shown raw', () => {
    const ok = (body: Record<string, unknown>) => validEvent({ sessionId: ID, seq: 1, ts: 1, ...body }) !== null;
    expect(ok({ kind: 'acp.update', update: { sessionUpdate: 'x' } })).toBe(true);
    expect(ok({ kind: 'acp.update', update: null })).toBe(false);
    expect(ok({ kind: 'acp.update' })).toBe(false);
    expect(ok({ kind: 'notice', level: 'loud', message: 'x' })).toBe(false);
    expect(ok({ kind: 'terminal.output', terminalId: 't', data: 5 })).toBe(false);
    expect(ok({ kind: '_future.thing', anything: [1] })).toBe(true);
    expect(validEvent({ kind: 'notice', level: 'info', message: 'no seq' })).toBeNull();
    expect(validEvent(null)).toBeNull();
    const event: SessionEvent = { sessionId: ID, seq: 2, ts: 3, kind: 'title.changed', title: 't', byPerson: true };
    expect(validEvent(event)).toBe(event);
  });
});
