import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../src-shared/session/state';
import { logIo, readEventLog } from '../store/eventLog';
import { disposer, makeCore, type Harness } from '../testing/coreHarness';

/*
 * The fault suite: a hostile agent misbehaves in each way we know of, next to a
 * well-behaved session on the fixture agent. After every fault the host is up (the core still
 * answers), the other session is untouched, and nothing that was saved is lost.
 */

const HOSTILE = resolve(import.meta.dirname, '../../e2e/fixtures/hostile-agent.mjs');
const harnesses = disposer();
const crashes: unknown[] = [];
const onCrash = (error: unknown) => crashes.push(error);
const realAppend = logIo.append;

beforeEach(() => {
  crashes.length = 0;
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
});
afterEach(async () => {
  logIo.append = realAppend;
  await harnesses.disposeAll();
  process.off('uncaughtException', onCrash);
  process.off('unhandledRejection', onCrash);
});

interface Scene {
  h: Harness;
  hostile: string;
  bystander: string;
  /** The bystander's transcript before the fault. */
  before: TranscriptEntry[];
}

// Real processes: a crash or an oversized line must hit the app the way a separate agent process does.
async function scene(): Promise<Scene> {
  const h = harnesses.track(makeCore([], {}, { processes: true, agents: [{ id: 'hostile', name: 'Hostile', command: process.execPath, args: [HOSTILE] }] }));
  const bystander = await h.newSession('fixture');
  await h.prompt(bystander, 'hello from the bystander');
  const hostile = await h.newSession('hostile');
  return { h, hostile, bystander, before: h.state(bystander).entries };
}

/** The host is up, the bystander is untouched and still works, its log holds what it showed. */
async function afterFault({ h, bystander, before }: Scene): Promise<void> {
  expect(crashes).toEqual([]);
  expect(h.state(bystander).entries).toEqual(before);
  expect((await h.core.handlers['app.state']({})).sessions.length).toBeGreaterThanOrEqual(2);
  await h.prompt(bystander, 'still there?');
  expect(h.agentText(bystander)).toContain('still there?');
  h.core.sessions.flush();
  const saved = await readEventLog(h.core.sessions.logFile(bystander));
  expect(saved.skipped).toBe(0);
  expect(saved.events.map((event) => event.seq)).toEqual(saved.events.map((_, i) => i + 1));
}

const noticeTexts = (h: Harness, sessionId: string) => h.notices(sessionId).map((notice) => notice.message);

describe('fault suite: a hostile agent', () => {
  it('a flood of non-JSON stdout is summarised: a few notices, not one per line', async () => {
    const s = await scene();
    const rssBefore = process.memoryUsage().rss;
    const started = Date.now();
    await s.h.prompt(s.hostile, 'garbage 50000', 30_000);
    const elapsed = Date.now() - started;
    expect(s.h.agentText(s.hostile)).toContain('Survived 50000 garbage lines.');
    await new Promise((r) => setTimeout(r, 1100)); // the per-second summary
    const garbage = noticeTexts(s.h, s.hostile).filter((text) => /not ACP/.test(text));
    expect(garbage.length).toBeGreaterThanOrEqual(5);
    expect(garbage.length).toBeLessThan(5 + 2 + Math.ceil(elapsed / 1000) * 2);
    expect(garbage[0]).toContain('debug: not json, line 0');
    const counted = garbage.slice(5).reduce((sum, text) => sum + Number(/(\d+) more line/.exec(text)?.[1] ?? 0), 0);
    expect(counted).toBe(50000 - 5);
    const rssDelta = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;
    console.log(`[measure] 50,000 garbage lines: ${garbage.length} notices, turn took ${elapsed} ms, host RSS +${rssDelta.toFixed(0)} MB`);
    await afterFault(s);
  }, 60_000);

  it('a message over the 32 MiB line limit is dropped with a notice that says so; the agent and session go on', async () => {
    const s = await scene();
    await s.h.prompt(s.hostile, 'oversize 33', 60_000);
    expect(s.h.agentText(s.hostile)).toContain('After the oversized message.');
    expect(noticeTexts(s.h, s.hostile).some((text) => /larger than the 32\.0 MiB limit of one ACP message/.test(text))).toBe(true);
    expect(s.h.lastStop(s.hostile)).toMatchObject({ stopReason: 'end_turn' });
    expect(s.h.state(s.hostile).status).not.toBe('exited');
    await s.h.prompt(s.hostile, 'echo next question');
    expect(s.h.agentText(s.hostile)).toContain('Echo: next question');
    await afterFault(s);
  }, 90_000);

  it('an answer over the limit is not sent (it would kill the agent): the agent gets an error, the session goes on', async () => {
    const s = await scene();
    const big = join(s.h.workspace, 'big.txt');
    writeFileSync(big, 'y'.repeat(33 * 1024 * 1024));
    await s.h.prompt(s.hostile, `readfile ${big}`, 60_000);
    expect(s.h.agentText(s.hostile)).toMatch(/read failed: The answer is 33\.0 MiB, over the 32\.0 MiB limit/);
    expect(s.h.state(s.hostile).status).not.toBe('exited');
    await s.h.prompt(s.hostile, 'echo alive');
    expect(s.h.agentText(s.hostile)).toContain('Echo: alive');
    await afterFault(s);
  }, 90_000);

  it('updates and messages of the wrong shape are ignored; the session goes on', async () => {
    const s = await scene();
    await s.h.prompt(s.hostile, 'badshape');
    expect(s.h.agentText(s.hostile)).toContain('Shapes done.');
    await s.h.prompt(s.hostile, 'echo fine');
    expect(s.h.agentText(s.hostile)).toContain('Echo: fine');
    await afterFault(s);
  });

  it('an update addressed to a session the agent does not have is dropped', async () => {
    const s = await scene();
    await s.h.prompt(s.hostile, 'other-session sess-that-is-not-there');
    expect(s.h.agentText(s.hostile)).toContain('Sent one update elsewhere.');
    expect(s.h.agentText(s.hostile)).not.toContain('INTRUDER');
    expect(s.h.agentText(s.bystander)).not.toContain('INTRUDER');
    await afterFault(s);
  });

  it('a crash mid-turn ends the turn with the reason; what was shown is saved; a new session starts the agent again', async () => {
    const s = await scene();
    await s.h.prompt(s.hostile, 'crash');
    expect(s.h.agentText(s.hostile)).toContain('Half a rep');
    s.h.core.sessions.flush();
    const log = readFileSync(s.h.core.sessions.logFile(s.hostile), 'utf8');
    expect(log).toContain('Half a rep');
    expect(JSON.stringify(s.h.state(s.hostile).entries)).toMatch(/exited with code 1/);
    const again = await s.h.newSession('hostile');
    await s.h.prompt(again, 'echo back again');
    expect(s.h.agentText(again)).toContain('Echo: back again');
    await afterFault(s);
  });

  it('a full disk mid-stream: the session says it is not being saved, keeps everything, and saves it all when space returns', async () => {
    const s = await scene();
    const hostileLog = s.h.core.sessions.logFile(s.hostile);
    s.h.core.sessions.flush();
    const savedBefore = readFileSync(hostileLog, 'utf8');
    // Every write of the hostile session's log fails with ENOSPC (the bystander idles meanwhile).
    logIo.append = () => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    };
    await s.h.prompt(s.hostile, 'stream 30 5');
    expect(s.h.agentText(s.hostile)).toContain('chunk29');
    expect(noticeTexts(s.h, s.hostile).some((text) => /not being saved: the disk is full/.test(text))).toBe(true);
    expect(readFileSync(hostileLog, 'utf8')).toBe(savedBefore);
    logIo.append = realAppend; // space again
    await s.h.waitFor(() => noticeTexts(s.h, s.hostile).some((text) => /being saved again/.test(text)), 'saving to resume', 10_000);
    s.h.core.sessions.flush();
    const { events, skipped } = await readEventLog(hostileLog);
    expect(skipped).toBe(0);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, i) => i + 1));
    const text = events.map((event) => JSON.stringify(event)).join('\n');
    for (let i = 0; i < 30; i++) expect(text).toContain(`chunk${i} `);
    expect(readFileSync(hostileLog, 'utf8').startsWith(savedBefore)).toBe(true);
    await afterFault(s);
  }, 60_000);
});
