import { afterEach, expect, it } from 'vitest';
import { readMainLog } from '../log/mainLog';
import { describeProtocols, disposer, makeCore } from '../testing/coreHarness';
import { FakeAgent, inProcessAgents } from '../testing/inProcessAgent';

const harnesses = disposer();
afterEach(() => harnesses.disposeAll());

const say = (text: string) => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } }) as const;

function twoAgents(idA: string, idB: string) {
  const a = new FakeAgent('a', { newSessionId: () => idA, onPrompt: async ({ update }) => update(say('from A')) });
  const b = new FakeAgent('b', { newSessionId: () => idB, onPrompt: async ({ update }) => update(say('from B')) });
  const h = harnesses.track(
    makeCore(
      [],
      {},
      {
        agents: [
          { id: 'a', name: 'Agent A', command: 'fake:a' },
          { id: 'b', name: 'Agent B', command: 'fake:b' },
        ],
        core: { startAgent: inProcessAgents(a, b) },
      },
    ),
  );
  return { h, a, b };
}

describeProtocols('session/update is routed by (agent connection, ACP session id)', () => {
  it('two agents that both name their session sess-1 do not cross their replies', async () => {
    const { h } = twoAgents('sess-1', 'sess-1');
    const inA = await h.newSession('a');
    const inB = await h.newSession('b');
    await h.prompt(inA, 'hello A');
    await h.prompt(inB, 'hello B');
    expect(h.agentText(inA)).toBe('from A');
    expect(h.agentText(inB)).toBe('from B');
  });

  it("an update from agent A naming agent B's session is dropped (and logged), never shown in B", async () => {
    const { h, a } = twoAgents('sess-a', 'sess-b');
    const inA = await h.newSession('a');
    const inB = await h.newSession('b');
    a.raw({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'sess-b', update: say('written by A') } });
    // A's own update after it: once it arrived, the stray one before it was handled too.
    a.raw({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'sess-a', update: say('A to itself') } });
    await h.waitFor(() => h.agentText(inA) === 'A to itself', "A's own update");
    h.core.sessions.flush();
    expect(h.agentText(inB)).toBe('');
    expect(JSON.stringify(h.state(inB)?.entries ?? [])).not.toContain('written by A');
    expect(readMainLog().lines.join('\n')).toMatch(/WARN Dropped a session\/update from Agent A for session sess-b/);
  });
});
