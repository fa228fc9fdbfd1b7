import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { WIRE_LOG_ENV } from '../acp/wireLog';
import { describeProtocols, disposer, makeCore } from '../testing/coreHarness';

const harnesses = disposer();
afterEach(() => {
  delete process.env[WIRE_LOG_ENV];
  return harnesses.disposeAll();
});

describeProtocols('prompt content', () => {
  it('a prompt reaches the agent as the window sent it, and is kept typed in the log', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'acp-prompt-')), 'wire');
    process.env[WIRE_LOG_ENV] = folder;
    const h = harnesses.track(makeCore());
    const sessionId = await h.newSession();
    const blocks = [
      { type: 'text', text: 'echometa', annotations: { audience: ['assistant'] } },
      { type: 'resource_link', uri: `file://${h.workspace}/a.ts`, name: 'a.ts', size: 12 },
      { type: 'resource', resource: { uri: `file://${h.workspace}/b.ts`, text: 'const b = 1;', mimeType: 'text/x-typescript' }, _meta: { from: 'test' } },
    ];
    await h.prompt(sessionId, blocks);
    const sent = readFileSync(join(folder, 'fixture.wire.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { dir: string; msg: { method?: string; params?: { prompt?: unknown } } })
      .find((line) => line.dir === 'client→agent' && line.msg.method === 'session/prompt');
    expect(sent?.msg.params?.prompt).toEqual(blocks);
    expect(h.eventsOf(sessionId, 'turn.started')[0].prompt).toEqual(blocks);
    expect(h.agentText(sessionId)).toContain('blocks: ["text","resource_link","resource"]');
  });
});
