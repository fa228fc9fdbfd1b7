import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProtocolSetting } from '../../../src-shared/settings';
import { AgentProcess } from '../../process/agentProcess';
import { CLIENT_CAPABILITIES, CLIENT_INFO } from '../clientSide';
import { negotiate, NegotiationError, sendRequest, type Negotiated } from './negotiate';

const V2_FIXTURE = resolve(import.meta.dirname, '../../../e2e/fixtures/fixture-agent-v2.mjs');
const V1_FIXTURE = resolve(import.meta.dirname, '../../../e2e/fixtures/fixture-agent.mjs');

import type { RawObject } from '../../../src-shared/session/raw';
const running: Negotiated[] = [];
let starts = 0;

afterEach(async () => {
  for (const n of running.splice(0)) {
    n.connection.close();
    await n.transport.stop();
  }
});

function start(script: string, args: string[]) {
  return () => {
    starts++;
    const process = new AgentProcess({ command: globalThis.process.execPath, args: [script, ...args], env: {} });
    const { input, output } = process.webStreams();
    return { input, output, stop: () => process.stop(500) };
  };
}

async function connect(setting: ProtocolSetting, script: string, args: string[] = []): Promise<Negotiated> {
  const result = await negotiate({
    setting,
    agent: { name: 'Fixture', id: 'fixture' },
    start: start(script, args),
    client: CLIENT_INFO,
    capabilities: CLIENT_CAPABILITIES,
    timeoutMs: 10_000,
  });
  running.push(result);
  return result;
}

/** The `initialize` requests the fixture logged, in order. */
function initializes(log: string): RawObject[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as RawObject)
    .filter((message) => message.method === 'initialize');
}

function logFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'acp-negotiate-')), 'received.jsonl');
}

describe('protocol negotiation against real agent processes', () => {
  it('an agent that does not answer initialize in time: the message is v1\'s, naming the limit as set (1.5 s, not "2 s"), with no second "failed to" prefix', async () => {
    const attempt = negotiate({
      setting: 'auto',
      agent: { name: 'Fixture', id: 'fixture' },
      start: start(V1_FIXTURE, ['--slow-init', '5000']),
      client: CLIENT_INFO,
      capabilities: CLIENT_CAPABILITIES,
      timeoutMs: 1500,
    });
    await expect(attempt).rejects.toThrow(/^The agent did not answer initialize within 1\.5 s\.$/);
  });

  it('auto with a v2 agent: version 2 in the v2 shape, and one normalized profile', async () => {
    const log = logFile();
    const n = await connect('auto', V2_FIXTURE, ['--log', log, '--auth']);
    expect(n.version).toBe(2);
    expect(n.steps).toEqual(['initialize v2']);
    const [sent] = initializes(log);
    expect(sent.params).toMatchObject({
      protocolVersion: 2,
      info: { name: 'acp-desktop' },
      capabilities: { auth: { terminal: {} }, elicitation: { form: {}, url: {} } },
    });
    // v2 clients have no fs or terminal capabilities.
    expect((sent.params as RawObject).capabilities).not.toHaveProperty('fs');
    expect((sent.params as RawObject).capabilities).not.toHaveProperty('terminal');
    expect(n.profile).toMatchObject({
      protocolVersion: 2,
      agentInfo: { name: 'fixture-agent-v2', title: 'Fixture Agent v2' },
      prompt: { image: true, audio: false, embeddedContext: true },
      mcp: { stdio: true, http: true, sse: false },
      session: {
        load: false,
        resume: true,
        resumeReplays: true,
        list: true,
        close: true,
        delete: true,
        fork: false,
        additionalDirectories: true,
        other: { _fixture: {} },
      },
      logout: true,
      modes: false,
    });
    expect(n.profile.authMethods.map((m) => [m.id, m.type])).toEqual([
      ['fixture-login', 'agent'],
      ['magic', '_x_magic'],
    ]);
  });

  it('v1 with the v1 fixture: version 1, the same profile shape, every capability sent', async () => {
    const n = await connect('v1', V1_FIXTURE);
    expect(n.version).toBe(1);
    expect(n.profile).toMatchObject({
      protocolVersion: 1,
      session: { load: true, resumeReplays: false },
      mcp: { stdio: true, http: true, sse: false },
      modes: true,
    });
    expect((n.result._meta as RawObject).clientCapabilitiesSeen).toMatchObject({ fs: { readTextFile: true, writeTextFile: true }, terminal: true });
  });

  it('auto with a router agent whose v2 is off: answered 1, re-initialized in the v1 shape on the same process with every capability', async () => {
    const log = logFile();
    starts = 0;
    const n = await connect('auto', V2_FIXTURE, ['--v2-off', '--log', log]);
    expect(n.version).toBe(1);
    expect(n.steps).toEqual(['initialize v2', 'initialize v1']);
    expect(starts).toBe(1);
    const sent = initializes(log);
    expect(sent.map((m) => (m.params as RawObject).protocolVersion)).toEqual([2, 1]);
    expect(sent[1].params).toMatchObject({ clientInfo: { name: 'acp-desktop' }, clientCapabilities: CLIENT_CAPABILITIES });
    // The agent saw the v1 capabilities (fs, terminal, booleans) on the second initialize.
    expect((n.result._meta as RawObject).clientCapabilitiesSeen).toMatchObject({ fs: { readTextFile: true, writeTextFile: true }, terminal: true });
    // The connection that came out of it works: session/new on the v1 SDK client.
    const session = (await sendRequest(n.connection, 'session/new', { cwd: '/tmp', mcpServers: [] })) as RawObject;
    expect(String(session.sessionId)).toMatch(/^v1-/);
  });

  it('auto with the plain v1 fixture (no router): falls back to v1', async () => {
    const n = await connect('auto', V1_FIXTURE, ['--v1-only']);
    expect(n.version).toBe(1);
    expect(n.steps).toEqual(['initialize v2', 'initialize v1']);
  });

  it('a v2-only agent configured as v1 fails with a message naming both versions and the setting', async () => {
    const error = await connect('v1', V2_FIXTURE, ['--v2-only']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NegotiationError);
    expect((error as Error).message).toMatch(/speaks ACP protocol version 2.*set to "v1" \(version 1\).*"v2" or "auto"/);
  });

  it('a v1-only agent configured as v2 fails with a message naming both versions and the setting', async () => {
    const error = await connect('v2', V2_FIXTURE, ['--v2-off']).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/speaks ACP protocol version 1.*set to "v2" \(version 2\).*"v1" or "auto"/);
  });

  it('auto with an agent that closes on v2: the process is restarted on v1', async () => {
    starts = 0;
    const log = logFile();
    const n = await connect('auto', V2_FIXTURE, ['--close-on-v2', '--log', log]);
    expect(n.version).toBe(1);
    expect(n.steps).toEqual(['initialize v2', 'restart v1', 'initialize v1']);
    expect(starts).toBe(2);
    expect(initializes(log).map((m) => (m.params as RawObject).protocolVersion)).toEqual([2, 1]);
  });

  it('v2-only agent under auto: version 2', async () => {
    const n = await connect('auto', V2_FIXTURE, ['--v2-only']);
    expect(n.version).toBe(2);
  });
});
