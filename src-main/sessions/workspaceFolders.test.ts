import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { describeProtocols, disposer, makeCore } from '../testing/coreHarness';
import { FakeAgent, inProcessAgents, type FakePromptContext } from '../testing/inProcessAgent';

const harnesses = disposer();
afterEach(() => harnesses.disposeAll());

/** An agent that can load, resume-less, fork and take extra folders; a prompt reads the file it names. */
function folderAgent() {
  return new FakeAgent('folders', {
    capabilities: { loadSession: true, sessionCapabilities: { additionalDirectories: {}, fork: {} } },
    onPrompt: async ({ sessionId, prompt, client, update }: FakePromptContext) => {
      const path = prompt[0]?.type === 'text' ? prompt[0].text : '';
      try {
        const result = await client.request('fs/read_text_file', { sessionId, path });
        await update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `Read: ${String(result.content)}` } });
      } catch (error) {
        await update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `Refused: ${(error as Error).message}` } });
      }
    },
  });
}

function setup(dataDir?: string, workspace?: string) {
  const agent = folderAgent();
  const h = makeCore(
    [],
    { outsideWorkspace: 'deny' },
    {
      dataDir,
      workspace,
      agents: [{ id: 'folders', name: 'Folders', command: 'fake:folders' }],
      core: { startAgent: inProcessAgents(agent) },
    },
  );
  return { h, agent };
}

describeProtocols('extra workspace folders (additionalDirectories) last as long as the session', () => {
  it('after a restart the agent may still read them, and the reconnect sends them again', async () => {
    const extra = mkdtempSync(join(tmpdir(), 'acp-extra-'));
    const file = join(extra, 'notes.txt');
    writeFileSync(file, 'kept');
    const first = setup();
    const sessionId = await first.h.newSession('folders', { additionalDirectories: [extra] });
    await first.h.prompt(sessionId, file);
    expect(first.h.agentText(sessionId)).toBe('Read: kept');
    expect(first.agent.callsOf('session/new')[0].additionalDirectories).toEqual([extra]);
    await first.h.dispose();

    const second = setup(first.h.dataDir, first.h.workspace);
    harnesses.track(second.h);
    await second.h.core.ready;
    await second.h.prompt(sessionId, file);
    expect(second.h.agentText(sessionId)).toBe('Read: kept');
    expect(second.agent.callsOf('session/load')).toEqual([expect.objectContaining({ additionalDirectories: [extra] })]);
  });

  it('a fork and a "continue in a new session" keep them', async () => {
    const extra = mkdtempSync(join(tmpdir(), 'acp-extra-'));
    const file = join(extra, 'notes.txt');
    writeFileSync(file, 'kept');
    const { h, agent } = setup();
    harnesses.track(h);
    const a = await h.newSession('folders', { additionalDirectories: [extra] });
    await h.prompt(a, file);

    const { sessionId: fork } = await h.core.handlers['history.fork']({ sessionId: a });
    expect(agent.callsOf('session/fork')).toEqual([expect.objectContaining({ additionalDirectories: [extra] })]);
    await h.prompt(fork, file);
    expect(h.agentText(fork).split('\n').at(-1)).toBe('Read: kept');

    const { sessionId: continued } = await h.core.handlers['session.continueNew']({ sessionId: a });
    await h.waitFor(() => h.connected(continued), 'the continued session to connect');
    expect(agent.callsOf('session/new').at(-1)).toEqual(expect.objectContaining({ additionalDirectories: [extra] }));
    await h.prompt(continued, file);
    expect(h.agentText(continued)).toBe('Read: kept');
  });
});
