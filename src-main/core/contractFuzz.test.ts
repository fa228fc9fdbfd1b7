import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requests, type RequestName } from '../../src-shared/ipc/contract';
import { pathInside } from '../store/dataPath';
import type { AppCore } from './appCore';
import { createCore } from './createCore';
import { dispatch } from './dispatch';

let root: string;
let core: AppCore;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'acp-fuzz-'));
  // The registry is a closed local port: a refresh fails at once instead of waiting on the CDN.
  mkdirSync(join(root, 'data'), { recursive: true });
  writeFileSync(join(root, 'data', 'settings.json'), JSON.stringify({ registryUrl: 'http://127.0.0.1:1/registry.json' }));
  core = createCore({ dataDir: join(root, 'data'), host: 'browser', defaultCwd: root });
});

afterAll(async () => {
  await core.dispose();
});

/** A deterministic generator, so a failure names the seed that reproduces it. */
function generator(seed: number) {
  let state = seed;
  const random = () => (state = (state * 48271) % 2147483647) / 2147483647;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const strings = [
    '',
    ' ',
    'a',
    's_1',
    '../../victim',
    '..',
    '/etc/passwd',
    'C:\\Windows',
    '%E0%A4%A',
    '\u0000',
    '\u202e',
    'x'.repeat(300),
    'é',
    '__proto__',
    'constructor',
  ];
  const fields = [
    'sessionId',
    'agentId',
    'acpSessionId',
    'path',
    'text',
    'query',
    'prompt',
    'open',
    'active',
    'requestId',
    'optionId',
    'action',
    'content',
    'configId',
    'value',
    'modeId',
    'terminalId',
    'data',
    'cols',
    'rows',
    'afterSeq',
    'title',
    'format',
    'cwd',
    'alsoOnAgent',
    'key',
    'methodId',
    'env',
  ];
  const value = (depth: number): unknown => {
    switch (Math.floor(random() * (depth > 2 ? 7 : 10))) {
      case 0:
        return null;
      case 1:
        return undefined;
      case 2:
        return pick([0, -1, 1.5, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, 1e308]);
      case 3:
        return pick([true, false]);
      case 4:
      case 5:
      case 6:
        return pick(strings);
      case 7:
        return Array.from({ length: Math.floor(random() * 3) }, () => value(depth + 1));
      default:
        return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, () => [pick(fields), value(depth + 1)]));
    }
  };
  return { value, pick, random };
}

/** Requests that would reach the network or spawn installers: fuzzed for their validation only. */
const NETWORK = new Set<string>(['registry.refresh', 'agent.install', 'agent.update', 'runtime.install', 'history.agentSessions']);

describe('IPC contract fuzz', () => {
  it('answers every random or boundary payload with a result or {code, message}, never a throw', async () => {
    const names = Object.keys(requests) as RequestName[];
    const { value, pick } = generator(20261124);
    let answered = 0;
    for (let i = 0; i < 1500; i++) {
      const name = i % 10 === 0 ? pick(['', 'nope', '__proto__', 'constructor', 'toString', 'app.state ']) : pick(names);
      const input = value(0);
      // `null` and `undefined` are read as `{}`, which is valid: only inputs the contract refuses go on.
      if (NETWORK.has(name) && requests[name as RequestName].input.safeParse(input ?? {}).success) continue;
      let answer: Awaited<ReturnType<typeof dispatch>>;
      try {
        answer = await dispatch(core.handlers, name, input);
      } catch (error) {
        throw new Error(`dispatch threw for ${name} ${JSON.stringify(input)}: ${(error as Error).message}`);
      }
      if (answer.ok) expect(answer).toHaveProperty('result');
      else expect(answer.error).toEqual({ code: expect.any(String), message: expect.any(String) });
      answered++;
    }
    expect(answered).toBeGreaterThan(1000);
    // And the core still answers a plain request afterwards.
    expect(await dispatch(core.handlers, 'app.state', {})).toMatchObject({ ok: true });
  }, 60_000);
});

describe('session ids are file names', () => {
  it('history.delete with "../" in the session id is refused and deletes nothing outside the data folder', async () => {
    const victim = join(root, 'victim.jsonl');
    writeFileSync(victim, 'precious\n');
    mkdirSync(join(root, 'data', 'sessions'), { recursive: true });
    for (const sessionId of ['../../victim', '../victim', '..', 'a/../../victim', `${root}/victim`]) {
      const answer = await dispatch(core.handlers, 'history.delete', { sessionId, alsoOnAgent: false });
      expect(answer).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    }
    expect(existsSync(victim)).toBe(true);
  });

  it('every id that names a file is checked at the contract: events, export, drafts, tabs', async () => {
    for (const [name, input] of [
      ['session.events', { sessionId: '../x', afterSeq: 0 }],
      ['session.export', { sessionId: '../x', format: 'jsonl' }],
      ['draft.set', { sessionId: '../x', text: 'hi' }],
      ['tabs.set', { open: ['../x'], active: null }],
      ['history.rename', { sessionId: 'a/b', title: 't' }],
    ] as const) {
      expect(await dispatch(core.handlers, name, input), name).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    }
  });

  it('a path built under the data folder cannot leave it, whatever slipped past validation', () => {
    const sessions = join(root, 'data', 'sessions');
    expect(pathInside(sessions, 's_1.jsonl')).toBe(join(sessions, 's_1.jsonl'));
    for (const name of ['../victim.jsonl', '../../etc/passwd', '/etc/passwd', '', '.', 'a/../../x', 'x\0.jsonl']) {
      expect(() => pathInside(sessions, name), name).toThrow(/outside the data folder/);
    }
    expect(() => core.sessions.logFile('../../victim')).toThrow(/outside the data folder/);
  });
});
