import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkRemoteUrl, isLoopbackHost } from '../../src-shared/remote';
import { parseSettings } from '../../src-shared/settings';
import type { AgentServer } from '../server/agentServer';
import { disposer } from '../testing/coreHarness';
import { makeRemoteCore, remoteAgent, startBridge } from '../testing/remoteHarness';
import { describeRemoteFailure, isPermanentFailure } from './remoteErrors';
import { RemoteAgentHost } from './remoteHost';

const harnesses = disposer();
const servers: AgentServer[] = [];
afterEach(async () => {
  await harnesses.disposeAll();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function bridge(): Promise<AgentServer> {
  const server = await startBridge();
  servers.push(server);
  return server;
}

describe('remote agent entries', () => {
  it('settings.json takes url + headers instead of command; both or neither is an error naming the entry', () => {
    const ok = parseSettings(JSON.stringify({ agents: [{ id: 'r', name: 'R', url: 'wss://dev.example/acp', headers: { Authorization: 'Bearer x' } }] }));
    expect(ok.error).toBeNull();
    expect(ok.settings.agents[0]).toMatchObject({ url: 'wss://dev.example/acp', headers: { Authorization: 'Bearer x' } });
    const both = parseSettings(
      JSON.stringify({
        agents: [
          { id: 'r', name: 'R', url: 'wss://x/acp', command: 'x' },
          { id: 'ok', name: 'OK', command: 'y' },
        ],
      }),
    );
    expect(both.error).toContain('agents[0].command');
    expect(both.settings.agents.map((agent) => agent.id)).toEqual(['ok']);
  });

  it('plain ws/http is refused to anything but loopback unless allowed for the agent, with a warning that says why', () => {
    expect(checkRemoteUrl('ws://127.0.0.1:9/acp')).toMatchObject({ ok: true, encrypted: false });
    expect(checkRemoteUrl('http://[::1]:9/acp')).toMatchObject({ ok: true, transport: 'http' });
    expect(checkRemoteUrl('wss://dev.example/acp')).toMatchObject({ ok: true, encrypted: true, machine: 'dev.example' });
    const refused = checkRemoteUrl('ws://10.1.2.3:9/acp');
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error).toMatch(/not encrypted.*allowInsecure/s);
    const allowed = checkRemoteUrl('http://10.1.2.3:9/acp', true);
    expect(allowed.ok && allowed.warning).toContain('can read your prompts');
    expect(checkRemoteUrl('ftp://x/acp').ok).toBe(false);
    expect(checkRemoteUrl('https://user:pw@x/acp').ok).toBe(false);
    expect(isLoopbackHost('localhost')).toBe(true);
    expect(isLoopbackHost('127.9.9.9')).toBe(true);
    expect(isLoopbackHost('128.0.0.1')).toBe(false);
  });

  it('a refused URL fails the session with that reason and nothing is sent', async () => {
    const h = harnesses.track(makeRemoteCore({ id: 'remote', name: 'Far', url: 'ws://10.1.2.3:9/acp' }, 'v1'));
    const sessionId = await h.newSession('remote');
    expect(h.state(sessionId).status).toBe('error');
    expect(JSON.stringify(h.state(sessionId).entries)).toContain('Refused to connect to ws://10.1.2.3:9/acp');
    const allowed = harnesses.track(makeRemoteCore({ id: 'remote', name: 'Far', url: 'ws://10.1.2.3:9/acp', allowInsecure: true }, 'v1'));
    expect(allowed.core.state().agents[0].remote).toMatchObject({
      state: 'offline',
      machine: '10.1.2.3',
      insecureWarning: expect.stringContaining('not encrypted'),
    });
  });

  it('secret header values added from the UI go to the secret store, not settings.json, and reach the server', async () => {
    const server = await bridge();
    const h = harnesses.track(makeRemoteCore({ id: 'other', name: 'Other', url: 'ws://127.0.0.1:1/acp' }, 'v1'));
    const answer = await h.core.handlers['agent.addRemote']({
      id: 'remote',
      name: 'Added',
      url: server.url,
      headers: [{ name: 'Authorization', value: 'Bearer bridge-token-for-tests-0123456789', secret: true }],
      allowInsecure: false,
      clientFs: false,
      clientTerminal: false,
    });
    expect(answer).toEqual({ ok: true, warning: null });
    const text = h.core.settings.text();
    expect(text).toContain('"secretHeaders"');
    expect(text).not.toContain('bridge-token-for-tests');
    const sessionId = await h.newSession('remote');
    await h.prompt(sessionId, 'hello with a secret header');
    expect(h.agentText(sessionId)).toContain('hello with a secret header');
    await expect(
      h.core.handlers['agent.addRemote']({
        id: 'far',
        name: 'Far',
        url: 'http://10.0.0.1/acp',
        headers: [],
        allowInsecure: false,
        clientFs: false,
        clientTerminal: false,
      }),
    ).rejects.toThrow(/Refused to connect/);
  });
});

describe('honest capabilities for a remote agent', () => {
  it("this computer's files and terminals are not offered by default, and a request for them is refused clearly", async () => {
    const server = await bridge();
    const h = harnesses.track(makeRemoteCore(remoteAgent(server.url), 'v1'));
    const sessionId = await h.newSession('remote');
    const seen = (h.core.state().agents[0].meta as { clientCapabilitiesSeen: Record<string, unknown> }).clientCapabilitiesSeen;
    expect(seen).toMatchObject({ fs: { readTextFile: false, writeTextFile: false }, terminal: false });
    expect(JSON.stringify(seen)).not.toContain('terminal-auth');
    expect(h.core.state().agents[0].remote).toMatchObject({ clientFs: false, clientTerminal: false, machine: '127.0.0.1' });
    writeFileSync(join(h.workspace, 'secret.txt'), 'local secret');
    await h.prompt(sessionId, `read ${join(h.workspace, 'secret.txt')}`);
    expect(h.agentText(sessionId)).toContain("this computer's files are not offered to this remote agent");
    expect(h.agentText(sessionId)).not.toContain('local secret');
  });

  it('turned on for the agent, files are offered and served', async () => {
    const server = await bridge();
    const h = harnesses.track(makeRemoteCore(remoteAgent(server.url, { clientFs: true }), 'v1'));
    const sessionId = await h.newSession('remote');
    const seen = (h.core.state().agents[0].meta as { clientCapabilitiesSeen: Record<string, unknown> }).clientCapabilitiesSeen;
    expect(seen).toMatchObject({ fs: { readTextFile: true, writeTextFile: true }, terminal: false });
    writeFileSync(join(h.workspace, 'shared.txt'), 'shared on purpose');
    await h.prompt(sessionId, `read ${join(h.workspace, 'shared.txt')}`);
    expect(h.agentText(sessionId)).toContain('shared on purpose');
  });
});

describe('a clear message for each way a connection fails', () => {
  it('real failures on loopback: nothing listening, and TLS spoken to a plain server', async () => {
    const refused = new RemoteAgentHost({ url: 'ws://127.0.0.1:1/acp', headers: {}, allowInsecure: false, clientFs: false, clientTerminal: false });
    const stream = refused.messages();
    const writer = stream.writable.getWriter();
    void writer.write({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }).catch(() => {});
    void stream.readable
      .getReader()
      .read()
      .catch(() => {});
    expect((await refused.exited).lost).toContain('Nothing is listening at 127.0.0.1:1 (connection refused)');
    const server = await bridge();
    const tls = new RemoteAgentHost({ url: server.url.replace(/^http/, 'https'), headers: {}, allowInsecure: false, clientFs: false, clientTerminal: false });
    const tlsStream = tls.messages();
    void tlsStream.writable
      .getWriter()
      .write({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} })
      .catch(() => {});
    void tlsStream.readable
      .getReader()
      .read()
      .catch(() => {});
    const lost = (await tls.exited).lost!;
    expect(lost).toContain('The secure (TLS) connection to 127.0.0.1');
    expect(isPermanentFailure(lost)).toBe(true);
  });

  it('DNS, timeouts, 401, 403, 409, oversized messages and cut connections each get their own sentence', () => {
    const url = 'https://dev.example/acp';
    const cause = (code: string) => Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(`getaddr ${code}`), { code }) });
    expect(describeRemoteFailure(cause('ENOTFOUND'), url)).toBe('Could not find the host dev.example (DNS lookup failed). Check the URL and your network.');
    expect(describeRemoteFailure(cause('UND_ERR_CONNECT_TIMEOUT'), url)).toContain('did not answer in time (timed out)');
    expect(describeRemoteFailure(new Error('Opening handshake has timed out'), url)).toContain('timed out');
    expect(describeRemoteFailure(new Error('Unexpected server response: 401'), url)).toContain('refused the credentials (401 Unauthorized)');
    expect(describeRemoteFailure(Object.assign(new Error('ACP POST failed: 403 Forbidden'), { status: 403 }), url)).toContain('(403 Forbidden)');
    expect(describeRemoteFailure(new Error('ACP SSE connection failed: 409 Conflict: Outbound stream already has an active receiver'), url)).toContain(
      "refused this session's event stream (409 Conflict)",
    );
    const tooLarge = Object.assign(new Error('Incoming ACP data exceeds the configured 16777216 byte limit'), { name: 'MessageTooLargeError' });
    expect(describeRemoteFailure(tooLarge, url)).toContain('larger than the 16 MiB limit');
    expect(describeRemoteFailure(cause('ECONNRESET'), url)).toContain('was cut');
    expect(describeRemoteFailure(new Error('ACP connection SSE stream closed'), url)).toContain('closed its event stream');
    expect(describeRemoteFailure(cause('CERT_HAS_EXPIRED'), url)).toContain('TLS');
    expect(isPermanentFailure(describeRemoteFailure(new Error('Unexpected server response: 401'), url))).toBe(true);
    expect(isPermanentFailure(describeRemoteFailure(cause('ECONNRESET'), url))).toBe(false);
  });
});
