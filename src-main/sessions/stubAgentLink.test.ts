import { afterEach, expect, it } from 'vitest';
import { disposer, makeCore } from '../testing/coreHarness';
import { stubAgents, type StubAgentLink } from '../testing/stubAgentLink';

/*
 * The session layer with a typed stub of the agent's connection: no SDK, no wire, no process.
 * What the agent does is said in the app's own events.
 */

const harnesses = disposer();
afterEach(() => harnesses.disposeAll());

it('a turn with a stub agent: its typed reports are the transcript, and its permission question waits for the person', async () => {
  const links: StubAgentLink[] = [];
  const connectAgent = stubAgents(
    {
      onPrompt: async (turn) => {
        turn.report({ kind: 'message.chunk', role: 'agent', messageId: 'm1', content: { type: 'text', text: 'Cleaning ' } });
        turn.report({ kind: 'tool.updated', toolCallId: 'tc1', fields: { title: 'Run cleanup', toolKind: 'execute', status: 'pending' } });
        const answer = await turn.askPermission({
          toolCallId: 'tc1',
          tool: {},
          options: [
            { optionId: 'yes', name: 'Go ahead', kind: 'allow_once' },
            { optionId: 'no', name: 'Reject', kind: 'reject_once' },
          ],
        });
        turn.report({ kind: 'tool.updated', toolCallId: 'tc1', fields: { status: answer === 'yes' ? 'completed' : 'failed' } });
        turn.report({ kind: 'message.chunk', role: 'agent', messageId: 'm1', content: { type: 'text', text: `up (${answer}).` } });
      },
    },
    links,
  );
  const h = harnesses.track(makeCore([], {}, { core: { connectAgent } }));
  const sessionId = await h.newSession();
  await h.send(sessionId, 'clean up');
  const request = await h.waitForPermission(sessionId);
  expect(h.tool(sessionId, 'tc1')).toMatchObject({ title: 'Run cleanup', status: 'awaiting_permission' });
  await h.core.handlers['permission.respond']({ sessionId, requestId: request.requestId, optionId: 'yes' });
  await h.waitFor(() => h.lastStop(sessionId) !== undefined, 'the turn to end');
  expect(h.agentText(sessionId)).toBe('Cleaning up (yes).');
  expect(h.tool(sessionId, 'tc1')).toMatchObject({ title: 'Run cleanup', status: 'completed', permissionOutcome: { optionId: 'yes' } });
  expect(links).toHaveLength(1);
  expect(links[0].sent.map((call) => call.method)).toEqual(['open:new', 'prompt']);
});
