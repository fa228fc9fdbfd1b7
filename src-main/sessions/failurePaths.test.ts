import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { describeProtocols, disposer, makeCore } from '../testing/coreHarness';

const harnesses = disposer();
afterEach(() => harnesses.disposeAll());

describeProtocols('failure paths', () => {
  it('closing a tab mid-turn ends the turn as cancelled in the log before it closes', async () => {
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    await h.send(sessionId, 'slow');
    await h.waitFor(() => h.agentText(sessionId).includes('chunk 1'), 'streaming');
    await h.core.handlers['session.close']({ sessionId });
    const kinds = h.events.filter((e) => e.sessionId === sessionId && e.kind.startsWith('turn.')).map((e) => e.kind);
    expect(kinds).toEqual(['turn.started', 'turn.ended']);
    expect(h.eventsOf(sessionId, 'turn.ended')).toMatchObject([{ stopReason: 'cancelled' }]);
  });

  it('an agent that failed to start: after fixing settings.json, agent.restart connects the same session', async () => {
    const h = harnesses.track(makeCore(['--crash-on-start']));
    const { sessionId } = await h.core.handlers['session.new']({ agentId: 'fixture', cwd: h.workspace });
    await h.waitFor(() => h.state(sessionId)?.status === 'error', 'start failure');
    const file = join(h.dataDir, 'settings.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"--crash-on-start"', '"--name"'));
    await new Promise((r) => setTimeout(r, 300)); // the settings file watcher picks the change up
    await h.core.handlers['agent.restart']({ agentId: 'fixture' });
    await h.waitFor(() => h.state(sessionId).status === 'idle' && h.state(sessionId).acpSessionId !== null, 'reconnected');
  });
});
