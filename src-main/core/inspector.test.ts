import { existsSync, readFileSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import type { EventPayload } from '../../src-shared/ipc/contract';
import { describeProtocols, disposer, makeCore } from '../testing/coreHarness';

const harnesses = disposer();

/** The text of the streamed message chunks among the rows, joined. */
function streamed(rows: { text: string }[]): string {
  return rows
    .map((row) => JSON.parse(row.text) as { params?: { update?: { sessionUpdate?: string; content?: { text?: string } } } })
    .filter((message) => message.params?.update?.sessionUpdate === 'agent_message_chunk')
    .map((message) => message.params!.update!.content!.text)
    .join('');
}
afterEach(() => harnesses.disposeAll());

const SECRET = 'env-secret-7f3a9c';
const NAMED = 'named-secret-81b2e4';
const env = { FIXTURE_SECRET: SECRET, MY_API_KEY: NAMED, PLAIN_VALUE: 'plain-visible' };

describeProtocols('the protocol inspector', () => {
  it("shows a turn's traffic both ways, paired, with the agent's secret environment values redacted", async () => {
    const h = harnesses.track(makeCore([], {}, { agents: [{ id: 'leaky', env, args: [] }] }));
    const sessionId = await h.newSession('leaky');
    await h.prompt(sessionId, 'echoenv FIXTURE_SECRET MY_API_KEY PLAIN_VALUE');
    expect(h.agentText(sessionId)).toContain(SECRET); // the agent did leak it
    const window = await h.core.handlers['inspector.window']({ agentId: 'leaky' });
    const text = window.rows.map((row) => row.text).join('\n');
    expect(text).not.toContain(NAMED);
    // The streamed answer, joined from its chunks: the secret (streamed a few characters per chunk) is gone, the rest is there.
    expect(streamed(window.rows)).toMatch(/MY_API_KEY=(\[redacted\])+\s*PLAIN_VALUE=plain-visible/);
    const methods = window.rows.map((row) => `${row.dir} ${row.kind} ${row.method ?? ''}`.trim());
    expect(methods[0]).toBe('out request initialize');
    expect(methods).toContain('out request session/prompt');
    expect(methods).toContain('in notification session/update');
  });

  it("redacts a value marked secret in the agent's settings (secretEnv), and sends live traffic to a subscriber", async () => {
    const h = harnesses.track(makeCore([], {}, { agents: [] }));
    // The fixture agent itself, with the env and the mark.
    const settingsFile = `${h.dataDir}/settings.json`;
    const json = JSON.parse(readFileSync(settingsFile, 'utf8')) as { agents: { env: Record<string, string>; secretEnv?: string[] }[] };
    json.agents[0].env = env;
    json.agents[0].secretEnv = ['FIXTURE_SECRET'];
    await h.core.handlers['settings.write']({ text: JSON.stringify(json) });
    const live: EventPayload<'inspector.traffic'>[] = [];
    h.core.on((name, payload) => {
      if (name === 'inspector.traffic') live.push(payload as EventPayload<'inspector.traffic'>);
    });
    await h.core.handlers['inspector.subscribe']({ agentId: 'fixture', clientId: 'page-1', on: true });
    const sessionId = await h.newSession();
    await h.prompt(sessionId, 'echoenv FIXTURE_SECRET');
    expect(h.agentText(sessionId)).toContain(SECRET);
    await h.waitFor(() => live.flatMap((batch) => batch.rows).some((row) => row.method === 'session/prompt'), 'live traffic');
    const rows = live.flatMap((batch) => batch.rows);
    expect(rows.map((row) => row.text).join('\n')).not.toContain(SECRET);
    expect(rows.map((row) => row.text).join('\n')).toContain('[redacted]');
    // Rows arrive in order, without gaps.
    expect(rows.map((row) => row.seq)).toEqual(rows.map((_, i) => rows[0].seq + i));
    // Renewing is not a second subscriber: one goodbye stops the live rows.
    await h.core.handlers['inspector.subscribe']({ agentId: 'fixture', clientId: 'page-1', on: true });
    await h.core.handlers['inspector.subscribe']({ agentId: 'fixture', clientId: 'page-1', on: false });
    const seen = live.length;
    await h.prompt(sessionId, 'hello again');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(live.length).toBe(seen);
  });
});

it('recording turned on is persisted and applies from the next start: the file is written redacted', async () => {
  const h = harnesses.track(makeCore([], {}, { agents: [{ id: 'leaky', env, args: [] }] }));
  const sessionId = await h.newSession('leaky');
  const before = await h.core.handlers['inspector.record']({ agentId: 'leaky', on: true });
  expect(before).toMatchObject({ active: false, next: true, file: null });
  expect(readFileSync(`${h.dataDir}/settings.json`, 'utf8')).toContain('"recordTraffic": true');
  await h.core.handlers['agent.restart']({ agentId: 'leaky' });
  await h.waitFor(() => h.state(sessionId).status === 'idle', 'the session to reconnect');
  const after = (await h.core.handlers['inspector.window']({ agentId: 'leaky' })).recording;
  expect(after.active).toBe(true);
  await h.prompt(sessionId, 'echoenv MY_API_KEY');
  expect(h.agentText(sessionId)).toContain(NAMED);
  expect(existsSync(after.file!)).toBe(true);
  const file = readFileSync(after.file!, 'utf8');
  expect(file).toContain('session/prompt');
  expect(file).not.toContain(NAMED);
  const messages = file
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { msg: unknown }).msg);
  expect(streamed(messages.map((msg) => ({ text: JSON.stringify(msg) })))).toMatch(/MY_API_KEY=(\[redacted\])+$/);
  // Older traffic than the ring buffer holds comes from the file, redacted, in order, before a time.
  const recorded = await h.core.handlers['inspector.recorded']({ agentId: 'leaky' });
  expect(recorded.file).toBe(after.file);
  const methods = recorded.rows.map((row) => row.method).filter(Boolean);
  expect(methods[0]).toBe('initialize');
  expect(methods).toContain('session/prompt');
  expect(recorded.rows.every((row) => row.seq < 0)).toBe(true);
  expect(recorded.rows.map((row) => row.text).join('\n')).not.toContain(NAMED);
  const prompt = recorded.rows.find((row) => row.method === 'session/prompt')!;
  const earlier = await h.core.handlers['inspector.recorded']({ agentId: 'leaky', beforeTime: prompt.t });
  expect(earlier.rows.some((row) => row.method === 'session/prompt')).toBe(false);
  expect(earlier.rows.length).toBeGreaterThan(0);
});
