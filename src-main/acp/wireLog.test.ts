import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { disposer, makeCore } from '../testing/coreHarness';
import { WIRE_LOG_ENV, wireRecorder } from './wireLog';

const harnesses = disposer();
afterEach(() => {
  delete process.env[WIRE_LOG_ENV];
  return harnesses.disposeAll();
});

it(`${WIRE_LOG_ENV}: an agent's ACP messages, both ways and in order, are kept in <folder>/<agent id>.wire.jsonl`, async () => {
  const folder = join(mkdtempSync(join(tmpdir(), 'acp-wire-')), 'wire');
  process.env[WIRE_LOG_ENV] = folder;
  const h = harnesses.track(makeCore());
  const sessionId = await h.newSession();
  await h.prompt(sessionId, 'hello');
  const lines = readFileSync(join(folder, 'fixture.wire.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { dir: string; t: number; msg: { method?: string; id?: number; result?: unknown } });
  const methods = lines.map((line) => `${line.dir} ${line.msg.method ?? 'response'}`);
  expect(methods[0]).toBe('client→agent initialize');
  expect(methods[1]).toBe('agent→client response');
  expect(methods).toContain('client→agent session/new');
  expect(methods).toContain('client→agent session/prompt');
  expect(methods).toContain('agent→client session/update');
  expect(lines.every((line) => typeof line.t === 'number' && line.t >= 0)).toBe(true);
});

it('without the variable (or with an empty one) nothing is recorded', () => {
  expect(wireRecorder('fixture', {})).toBeNull();
  expect(wireRecorder('fixture', { [WIRE_LOG_ENV]: ' ' })).toBeNull();
});
