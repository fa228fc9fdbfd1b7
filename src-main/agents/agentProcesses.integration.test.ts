import { realpathSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { disposer, makeCore } from '../testing/coreHarness';

/*
 * The engine's unit tests run the scripted fixture agent in-process (`testing/inProcessAgent.ts`).
 * These few run it as a real process, so the seams only a process has stay covered: stdio
 * framing, stderr, exit codes and signals, and a restart that spawns it again.
 */
const harnesses = disposer();
afterEach(() => harnesses.disposeAll());

describe('the fixture agent as a real process', () => {
  it('streams a turn and asks permission over stdio', async () => {
    const h = harnesses.track(makeCore([], {}, { processes: true }));
    const sessionId = await h.newSession();
    await h.prompt(sessionId, 'hello over stdio');
    expect(h.agentText(sessionId)).toContain('**Echo:** hello over stdio');
    await h.send(sessionId, 'permission');
    const request = await h.waitForPermission(sessionId);
    await h.core.handlers['permission.respond']({ sessionId, requestId: request.requestId, optionId: request.options[0].optionId });
    await h.waitFor(
      () => h.lastStop(sessionId) !== undefined && h.state(sessionId).entries.filter((e) => e.kind === 'stop').length === 2,
      'the permission turn to end',
    );
    expect(h.state(sessionId).permissions).toEqual([]);
  });

  it("the agent process runs in the workspace of the session that started it, not the app's own folder", async () => {
    const h = harnesses.track(makeCore([], {}, { processes: true }));
    const sessionId = await h.newSession();
    await h.prompt(sessionId, 'pwd');
    expect(h.agentText(sessionId)).toBe(`Process cwd: ${realpathSync(h.workspace)}`);
  });

  it('a crash mid-turn reports its exit code and stderr; a restart spawns it again and reconnects', async () => {
    const h = harnesses.track(makeCore([], {}, { processes: true }));
    const sessionId = await h.newSession();
    const pidBefore = h.core.agents.connection('fixture')!.pid;
    await h.prompt(sessionId, 'crash now');
    await h.waitFor(() => h.eventsOf(sessionId, 'agent.exited').length === 1, 'agent.exited');
    const exited = h.eventsOf(sessionId, 'agent.exited')[0];
    expect(exited.code).toBe(3);
    expect(exited.stderrTail.join('\n')).toContain('fatal error: simulated crash');
    await h.core.handlers['agent.restart']({ agentId: 'fixture' });
    await h.waitFor(() => h.eventsOf(sessionId, 'session.connected').length === 2, 'reconnect after restart');
    expect(h.core.agents.connection('fixture')!.pid).not.toBe(pidBefore);
    await h.prompt(sessionId, 'back again');
    expect(h.agentText(sessionId)).toContain('back again');
  });
});
