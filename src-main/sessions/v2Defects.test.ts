import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isKnown, KNOWN_PLAN_STATUSES } from '../../src-shared/acp/known';
import { reduceSession } from '../../src-shared/session/reducer';
import type { AgentMessageEntry, ThoughtEntry } from '../../src-shared/session/state';
// What a person sees is decided by these pure functions of the renderer (no DOM): the test feeds
// them what the session path produced, which no renderer test can reach.
/* eslint-disable @typescript-eslint/no-restricted-imports */
import { changedFiles } from '../../src-shared/session/changedFiles';
import { shownPlan } from '../../src-renderer/features/plan/shownPlan';
import { publishTerminalOutput, subscribeTerminal } from '../../src-renderer/store/terminalBus';
/* eslint-enable @typescript-eslint/no-restricted-imports */
import { readEventLog } from '../store/eventLog';
import { disposer, makeCore } from '../testing/coreHarness';

/*
 * Issue 22: what went wrong with v2 agents while the app's events were v1's wire JSON with v2
 * added beside it. Each test drives the v2 fixture agent (its scenarios say it in v2's own terms)
 * through the whole session path and looks at what a person would see.
 */

const V2_FIXTURE = resolve(import.meta.dirname, '../../e2e/fixtures/fixture-agent-v2.mjs');

const harnesses = disposer();
afterEach(() => harnesses.disposeAll());

async function v2Session() {
  const h = harnesses.track(
    makeCore(
      ['--v1-only'],
      { agentOverrides: { v2: { protocol: 'auto' } } },
      {
        agents: [{ id: 'v2', name: 'Fixture v2', command: process.execPath, args: [V2_FIXTURE, '--delay', '1'] }],
      },
    ),
  );
  const sessionId = await h.newSession('v2');
  return { h, sessionId };
}

const agents = (entries: readonly { kind: string }[]) => entries.filter((e): e is AgentMessageEntry => e.kind === 'agent');
const thoughts = (entries: readonly { kind: string }[]) => entries.filter((e): e is ThoughtEntry => e.kind === 'thought');

/** The state folded again from the session's log on disk, as opening it later does. */
async function replayed(h: Awaited<ReturnType<typeof v2Session>>['h'], sessionId: string) {
  const { events } = await readEventLog(h.core.sessions.get(sessionId).log.file);
  return reduceSession(undefined, events);
}

describe('issue 22: v2 conversations through the session path', () => {
  it('1. an agent terminal reported in one terminal_update reaches the terminal views (the side panel) with its output', async () => {
    const { h, sessionId } = await v2Session();
    const seen: string[] = [];
    const unsubscribe = subscribeTerminal(sessionId, 'term-build', (data) => seen.push(data));
    try {
      await h.prompt(sessionId, 'termsnapshot 0');
      publishTerminalOutput(
        sessionId,
        h.events.filter((event) => event.sessionId === sessionId),
      );
    } finally {
      unsubscribe();
    }
    expect(h.state(sessionId).terminals['term-build']).toMatchObject({ command: 'npm run build', exited: true, exitCode: 0 });
    expect(seen.join('')).toContain('SNAPSHOT-OUTPUT built ok');
  });

  it('2. an upsert that carries only _meta leaves the message text as it was', async () => {
    const { h, sessionId } = await v2Session();
    await h.prompt(sessionId, 'metaonly');
    expect(agents(h.state(sessionId).entries).map((e) => e.text)).toEqual(['Keep this text.']);
  });

  it('3. a thought upserted after streaming replaces that thought instead of adding a second', async () => {
    const { h, sessionId } = await v2Session();
    await h.prompt(sessionId, 'thoughtupsert');
    expect(thoughts(h.state(sessionId).entries).map((e) => e.text)).toEqual(['Thought rewritten.']);
  });

  it('4. chunks alternating between two message ids make two messages, live and replayed alike', async () => {
    const { h, sessionId } = await v2Session();
    await h.prompt(sessionId, 'interleave');
    expect(agents(h.state(sessionId).entries).map((e) => e.text)).toEqual(['alpha-gamma.', 'beta-delta.']);
    expect(agents((await replayed(h, sessionId)).entries).map((e) => e.text)).toEqual(['alpha-gamma.', 'beta-delta.']);
  });

  it("5. a permission's title does not rename the tool call it asks about", async () => {
    const { h, sessionId } = await v2Session();
    await h.send(sessionId, 'permtitle');
    const request = await h.waitForPermission(sessionId);
    expect(request.title).toBe('Allow the agent to run rm -rf build?');
    expect(h.tool(sessionId, 'tc-clean')?.title).toBe('Run cleanup');
    await h.core.handlers['permission.respond']({ sessionId, requestId: request.requestId, optionId: 'yes' });
    await h.waitFor(() => h.lastStop(sessionId) !== undefined, 'the turn to end');
    expect(h.tool(sessionId, 'tc-clean')?.title).toBe('Run cleanup');
  });

  it('6. an allowed request about a command with no tool call, or about an unknown subject, does not read "Canceled"', async () => {
    const { h, sessionId } = await v2Session();
    await h.send(sessionId, 'permsubjects');
    for (const title of ['Run make clean?', 'Feed the cat?']) {
      await h.waitFor(() => h.state(sessionId).permissions[0]?.title === title, title);
      await h.core.handlers['permission.respond']({ sessionId, requestId: h.state(sessionId).permissions[0].requestId, optionId: 'yes' });
    }
    await h.waitFor(() => h.lastStop(sessionId) !== undefined, 'the turn to end');
    expect(h.agentText(sessionId)).toContain('Answers: yes, yes');
    const cards = h.state(sessionId).entries.filter((e) => e.kind === 'tool' && e.permissionOutcome);
    expect(cards).toHaveLength(2);
    for (const card of cards) {
      expect(card).toMatchObject({ permissionOutcome: { optionId: 'yes', name: 'Go ahead' } });
      expect((card as { status: string }).status).not.toBe('canceled');
    }
  });

  it('7. with two plans, the first plan is shown from its own "Show plan"', async () => {
    const { h, sessionId } = await v2Session();
    await h.prompt(sessionId, 'plan');
    const state = h.state(sessionId);
    const summaries = state.entries.filter((e) => e.kind === 'plan');
    expect(summaries.map((e) => e.entries.map((item) => item.content))).toEqual([['Read', 'Write'], ['Other plan']]);
    expect(shownPlan(state, summaries[0].id).map((item) => item.content)).toEqual(['Read', 'Write']);
    expect(shownPlan(state, summaries[1].id).map((item) => item.content)).toEqual(['Other plan']);
  });

  it('8. a deletion listed in changes without a patch is in the Review panel', async () => {
    const { h, sessionId } = await v2Session();
    await h.prompt(sessionId, 'deletion');
    expect(changedFiles(h.state(sessionId))).toEqual([expect.objectContaining({ path: '/w/old.txt', deleted: true })]);
  });

  it('9. a prompt the agent rejects is reported once', async () => {
    const { h, sessionId } = await v2Session();
    await h.prompt(sessionId, 'rejectprompt');
    await new Promise((r) => setTimeout(r, 100)); // the prompt's error answer comes after the idle
    const stops = h.state(sessionId).entries.filter((e) => e.kind === 'stop');
    expect(stops).toHaveLength(1);
    expect(stops[0]).toMatchObject({ stopReason: 'error', error: expect.stringContaining('Quota exceeded') });
    expect(h.state(sessionId).status).toBe('error');
  });

  it('10. a plan entry cancelled (a v2 status) is a known status', async () => {
    const { h, sessionId } = await v2Session();
    await h.prompt(sessionId, 'cancelledplan');
    const [item] = h.state(sessionId).plan;
    expect(item.status).toBe('cancelled');
    expect(isKnown(KNOWN_PLAN_STATUSES, item.status)).toBe(true);
  });

  it("11. a diff rebuilt from a git patch keeps the file's final newline", async () => {
    const { h, sessionId } = await v2Session();
    await h.prompt(sessionId, 'patchnewline');
    const [file] = changedFiles(h.state(sessionId));
    expect(file).toMatchObject({ path: '/w/n.txt', oldText: 'first\nsecond\n', newText: 'first\nSECOND\n' });
  });
});
