import { appendFileSync, copyFileSync, existsSync, mkdtempSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../core/appCore';
import { foldLog, snapshotPolicy } from '../sessions/sessionRestore';
import { sessionFold } from '../sessions/sessionFold';
import { makeCore } from '../testing/coreHarness';
import { writeLongLog } from '../testing/longLog';
import { foldLogFile, readSnapshotHead, snapshotFile, type LogFold } from './logSnapshot';

const cores: AppCore[] = [];
afterEach(async () => {
  snapshotPolicy.minEvents = 500;
  await Promise.all(cores.splice(0).map((c) => c.dispose()));
});

/** A varied session recorded by the real core, its log flushed; returns the log file. */
async function recordedSession(prompts = ['hello there', 'tools', 'plan', 'thought', 'usage', 'unknown', 'many 300']) {
  const h = makeCore(['--config', '--commands']);
  cores.push(h.core);
  const sessionId = await h.newSession();
  for (const text of prompts) await h.prompt(sessionId, text);
  h.core.sessions.flush();
  return { h, sessionId, log: h.core.sessions.logFile(sessionId) };
}

/** The fold of the whole log, ignoring any snapshot (what the log alone says). */
async function truth(log: string) {
  const plain: LogFold<ReturnType<typeof sessionFold.reduce>> = { version: 'never-saved', reduce: sessionFold.reduce };
  return foldLogFile(log, plain);
}

describe('snapshots beside the log', () => {
  it('a snapshot gives the same state as the whole log, and only the events after it are read', async () => {
    snapshotPolicy.minEvents = 0;
    const { h, sessionId, log } = await recordedSession();
    const first = await foldLog(log);
    expect(existsSync(snapshotFile(log))).toBe(true);
    expect(first!.eventsParsed).toBeGreaterThan(100);

    await h.prompt(sessionId, 'hello again');
    h.core.sessions.flush();
    const whole = await truth(log);
    const again = await foldLog(log);
    expect(again!.state).toEqual(whole.state!.state);
    expect(again!.state).toEqual(h.core.sessions.sessions.get(sessionId)!.state);
    expect(again!.eventsParsed).toBe(whole.lastSeq - first!.state.lastSeq); // the tail only
    // Where each event starts: the line at that offset is that event.
    const text = readFileSync(log, 'utf8');
    for (const seq of [1, first!.state.lastSeq, whole.lastSeq]) {
      const at = again!.offsets.startOf(seq)!;
      expect(JSON.parse(text.slice(at, text.indexOf('\n', at))).seq).toBe(seq);
    }
  });

  it('deleting every snapshot changes nothing but speed', async () => {
    snapshotPolicy.minEvents = 0;
    const { log } = await recordedSession();
    const withoutAny = await foldLog(log); // writes one
    const withOne = await foldLog(log);
    unlinkSync(snapshotFile(log));
    const afterDelete = await foldLog(log);
    expect(withOne!.state).toEqual(withoutAny!.state);
    expect(afterDelete!.state).toEqual(withoutAny!.state);
    expect(withOne!.eventsParsed).toBe(0);
    expect(afterDelete!.eventsParsed).toBe(withoutAny!.eventsParsed);
  });

  it('a snapshot left behind by a kill -9 (log written on, last line torn) is detected, read past and rebuilt; no event is lost', async () => {
    snapshotPolicy.minEvents = 0;
    const { h, sessionId, log } = await recordedSession(['hello there', 'tools']);
    await foldLog(log);
    const stale = await readSnapshotHead(snapshotFile(log));
    // The host went on recording, then died mid-line: the log is ahead of the snapshot.
    await h.prompt(sessionId, 'plan');
    await h.prompt(sessionId, 'many 50');
    h.core.sessions.flush();
    const lastComplete = h.core.sessions.sessions.get(sessionId)!.state.lastSeq;
    appendFileSync(log, '{"kind":"acp.update","sessionId":"');
    const restored = await foldLog(log);
    expect(restored!.state.lastSeq).toBe(lastComplete);
    expect(restored!.state).toEqual((await truth(log)).state!.state);
    expect(restored!.unreported).toBe(1); // the torn line, reported once as before
    const rebuilt = await readSnapshotHead(snapshotFile(log));
    expect(stale.lastSeq).toBeLessThan(lastComplete);
    expect(rebuilt.lastSeq).toBe(lastComplete);
    expect(rebuilt.logSize).toBeLessThan(statSync(log).size); // the torn line stays outside it
  });

  it('a snapshot that does not match its log (older copy restored, cut, or unreadable) is not used', async () => {
    snapshotPolicy.minEvents = 0;
    const { h, sessionId, log } = await recordedSession(['hello there']);
    const older = `${log}.older`;
    copyFileSync(log, older);
    await h.prompt(sessionId, 'tools');
    h.core.sessions.flush();
    await foldLog(log); // a snapshot of the longer log
    copyFileSync(older, log); // the log goes back to an older copy: the snapshot is ahead of it
    const restored = await foldLog(log);
    expect(restored!.state).toEqual((await truth(log)).state!.state);
    expect(restored!.state.entries.some((e) => e.kind === 'tool')).toBe(false);

    writeFileSync(snapshotFile(log), '{"fileVersion":1,"version":"'); // torn snapshot
    expect((await foldLog(log))!.state).toEqual((await truth(log)).state!.state);

    // The same length, other events: the event at the snapshot's end must be the one it saw.
    const snap = await readSnapshotHead(snapshotFile(log));
    const text = readFileSync(log, 'utf8');
    expect(text).toContain(`"seq":${snap.lastSeq},`);
    writeFileSync(log, text.replace(`"seq":${snap.lastSeq},`, `"seq":${snap.lastSeq + 1000},`));
    const replaced = await foldLogFile(log, sessionFold);
    expect(replaced.from).toBe('log');
  });

  it('a snapshot is a first line and its entries in lines of at most 500: never one text to hold whole (host memory, round 4)', async () => {
    snapshotPolicy.minEvents = 0;
    const log = join(mkdtempSync(join(tmpdir(), 'acp-snapshot-lines-')), 's_lines.jsonl');
    writeLongLog(log, 2_000, 's_lines');
    const folded = await foldLog(log);
    const entries = folded!.state.entries.length;
    expect(entries).toBeGreaterThan(1000);
    const lines = readFileSync(snapshotFile(log), 'utf8').split('\n').filter(Boolean);
    const head = JSON.parse(lines[0]) as { items: number; state: { state: { entries: unknown[] } } };
    expect(head.items).toBe(entries);
    expect(head.state.state.entries).toEqual([]);
    expect(lines).toHaveLength(1 + Math.ceil(entries / 500));
    for (const line of lines.slice(1)) expect((JSON.parse(line) as unknown[]).length).toBeLessThanOrEqual(500);
    // Read back: the same state, from the snapshot; a snapshot cut short is not used.
    const again = await foldLogFile(log, sessionFold);
    expect(again.from).toBe('snapshot');
    expect(again.state!.state).toEqual(folded!.state);
    writeFileSync(snapshotFile(log), lines.slice(0, -1).join('\n') + '\n');
    expect((await foldLogFile(log, sessionFold)).from).toBe('log');
  });

  it('a snapshot made by another version of the fold is rebuilt', async () => {
    snapshotPolicy.minEvents = 0;
    const { log } = await recordedSession(['hello there']);
    await foldLog(log);
    const other: LogFold<unknown> = { version: 'another reducer', reduce: () => ({}) };
    expect((await foldLogFile(log, other)).from).toBe('log');
    expect((await foldLogFile(log, sessionFold)).from).toBe('snapshot');
  });
});
