import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { disposer, makeCore } from '../testing/coreHarness';

/*
 * An agent's stderr is kept in one place, its own rotated log under the data folder; every
 * session of the agent gets a short excerpt of it when the agent exits, with the log's path.
 */

const HOSTILE = resolve(import.meta.dirname, '../../e2e/fixtures/hostile-agent.mjs');
const harnesses = disposer();
afterEach(() => harnesses.disposeAll());

// Real processes: the stderr pipe delivers a long line in chunks, as it does for a real agent.
const hostileCore = () =>
  harnesses.track(makeCore([], {}, { processes: true, agents: [{ id: 'hostile', name: 'Hostile', command: process.execPath, args: [HOSTILE] }] }));

describe("an agent's stderr", () => {
  it("a 20 MB stderr line: each session's exit event holds a short excerpt and the agent log's path; the log holds the end of the line, rotated", async () => {
    const h = hostileCore();
    const first = await h.newSession('hostile');
    const second = await h.newSession('hostile');
    await h.send(first, 'stderrflood 20');
    await h.waitFor(() => [first, second].every((id) => h.eventsOf(id, 'agent.exited').length === 1), 'both sessions to see the exit', 60_000);
    h.core.sessions.flush();
    const agentLog = join(h.dataDir, 'logs', 'agents', 'hostile.log');
    for (const id of [first, second]) {
      const [exited] = h.eventsOf(id, 'agent.exited');
      expect(JSON.stringify(exited).length, id).toBeLessThan(5 * 1024);
      expect(exited.stderrTail.at(-1)).toBe('last words');
      // The 20 MB line as its start and its end, and how much of it is left out.
      const [, start, dropped, end] = /^(e+)… \[(\d+) characters not kept\] …(e+END-OF-FLOOD)$/.exec(exited.stderrTail.at(-2)!)!;
      expect(start.length + Number(dropped) + end.length).toBe(20 * 1024 * 1024 + 'END-OF-FLOOD'.length);
      expect(exited.stderrTail).toHaveLength(2);
      expect(exited.stderrLog).toBe(agentLog);
      // What a person sees: the excerpt and where the full log is.
      const notice = h.notices(id).find((entry) => entry.level === 'error' && /exited/.test(entry.message));
      expect(notice).toMatchObject({ detail: exited.stderrTail, logFile: agentLog });
      expect(statSync(h.core.sessions.logFile(id)).size, id).toBeLessThan(32 * 1024);
    }
    expect(readFileSync(agentLog, 'utf8')).toMatch(/e{1000}END-OF-FLOOD\nlast words\n[^]*exited with code 1/);
    expect(readFileSync(`${agentLog}.1`, 'utf8')).toMatch(/^e+$/);
    const kept = [agentLog, `${agentLog}.1`, `${agentLog}.2`].reduce((sum, file) => sum + statSync(file).size, 0);
    expect(kept).toBeLessThan(4 * 1024 * 1024);
    expect(existsSync(`${agentLog}.3`)).toBe(false);
  }, 90_000);

  it('a crash: the whole stderr is in the agent log, between a start line and an exit line', async () => {
    const h = hostileCore();
    const sessionId = await h.newSession('hostile');
    await h.send(sessionId, 'crash');
    await h.waitFor(() => h.eventsOf(sessionId, 'agent.exited').length === 1, 'the exit');
    const [exited] = h.eventsOf(sessionId, 'agent.exited');
    expect(exited.stderrTail).toEqual(['Error: hostile agent crashed on purpose', '    at prompt (hostile-agent.mjs:1:1)']);
    const log = readFileSync(join(h.dataDir, 'logs', 'agents', 'hostile.log'), 'utf8');
    expect(log).toMatch(
      /started: .*hostile-agent\.mjs \(pid \d+\)\n[^]*Error: hostile agent crashed on purpose\n {4}at prompt \(hostile-agent\.mjs:1:1\)\n[^]*exited with code 1/,
    );
  });
});
