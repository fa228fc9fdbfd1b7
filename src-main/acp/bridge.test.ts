import { request as httpRequest } from 'node:http';
import * as acp from '@agentclientprotocol/sdk/unstable';
import { createHttpStream } from '@agentclientprotocol/sdk/experimental/http-client';
import { createWebSocketStream, type WebSocketConstructor } from '@agentclientprotocol/sdk/experimental/ws-client';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { checkRequest, startAgentServer, type AgentServer } from '../server/agentServer';
import { startBridge } from '../testing/remoteHarness';
import { FIXTURE_AGENT } from '../testing/coreHarness';

const TOKEN = 'bridge-token-for-tests-0123456789';
const servers: AgentServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(predicate: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** One raw HTTP request to the bridge: its status. */
function status(server: AgentServer, headers: Record<string, string>, path = '/acp', method = 'POST'): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, path, method, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(method === 'POST' ? '{}' : undefined);
  });
}

/** A WebSocket upgrade's answer: 'open' or the refusal's status. */
function upgrade(server: AgentServer, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${server.port}/acp`, { headers });
    socket.on('open', () => (socket.close(), resolve('open')));
    socket.on('unexpected-response', (_req, res) => resolve(String(res.statusCode)));
    socket.on('error', (error) => resolve(error.message));
  });
}

describe('the bridge (acp-desktop agent-server): its security model', () => {
  it('binds loopback by default with a random token, and warns when bound elsewhere', async () => {
    const server = await startAgentServer({ agent: { command: process.execPath, args: [FIXTURE_AGENT], env: {} } });
    servers.push(server);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/acp$/);
    expect(server.token.length).toBeGreaterThanOrEqual(32);
    expect(server.warning).toBeNull();
    const exposed = await startAgentServer({ agent: { command: process.execPath, args: [FIXTURE_AGENT], env: {} }, host: '0.0.0.0' });
    servers.push(exposed);
    expect(exposed.warning).toContain('not loopback');
  });

  it('needs the token on every request and upgrade (401 otherwise), refuses other origins (403) and other paths (404)', async () => {
    const server = await startBridge([], { token: TOKEN });
    servers.push(server);
    const json = { 'content-type': 'application/json' };
    expect(await status(server, json)).toBe(401);
    expect(await status(server, { ...json, authorization: 'Bearer wrong-token-of-the-same-length!!' })).toBe(401);
    expect(await status(server, { ...json, authorization: `Basic ${TOKEN}` })).toBe(401);
    expect(await status(server, { ...json, authorization: `Bearer ${TOKEN}` }, '/other')).toBe(404);
    expect(await status(server, { ...json, authorization: `Bearer ${TOKEN}`, origin: 'https://evil.example' })).toBe(403);
    expect(await upgrade(server, {})).toBe('401');
    expect(await upgrade(server, { authorization: `Bearer ${TOKEN}`, origin: 'https://evil.example' })).toBe('403');
    expect(await upgrade(server, { authorization: `Bearer ${TOKEN}`, origin: 'null' })).toBe('403');
    expect(await upgrade(server, { authorization: `Bearer ${TOKEN}` })).toBe('open');
    expect(server.stats.refused).toBe(8);
  });

  it('checkRequest: an origin of the same host passes; a garbage origin is another origin', () => {
    const auth = { authorization: `Bearer ${TOKEN}`, host: '127.0.0.1:9' };
    expect(checkRequest({ url: '/acp', headers: { ...auth, origin: 'http://127.0.0.1:9' } }, TOKEN)).toBeNull();
    expect(checkRequest({ url: '/acp', headers: { ...auth, origin: '%%%' } }, TOKEN)?.status).toBe(403);
    expect(checkRequest({ url: '/acp?x=1', headers: auth }, TOKEN)).toBeNull();
  });
});

describe('the bridge under load', () => {
  it('20 concurrent connections (10 WebSocket, 10 Streamable HTTP) each get their own agent process, all cleaned up after', async () => {
    const pids: number[] = [];
    const server = await startBridge([], { token: TOKEN, pids });
    servers.push(server);
    const headers = { Authorization: `Bearer ${TOKEN}` };
    const clients = Array.from({ length: 20 }, (_, i) => {
      const stream =
        i % 2 === 0
          ? createWebSocketStream(server.url.replace(/^http/, 'ws'), { headers, WebSocket: WebSocket as unknown as WebSocketConstructor })
          : createHttpStream(server.url, { headers });
      return acp.client({ name: `load-${i}` }).connect(stream);
    });
    const answers = await Promise.all(
      clients.map(async (client, i) => {
        await client.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
        const session = (await client.agent.request('session/new', { cwd: process.cwd(), mcpServers: [] })) as { sessionId: string };
        const turn = (await client.agent.request('session/prompt', { sessionId: session.sessionId, prompt: [{ type: 'text', text: `hello ${i}` }] })) as {
          stopReason: string;
        };
        return turn.stopReason;
      }),
    );
    expect(answers).toEqual(Array(20).fill('end_turn'));
    expect(new Set(pids).size).toBe(20);
    expect(pids.filter(alive)).toHaveLength(20);
    for (const client of clients) client.close();
    await waitFor(() => pids.filter(alive).length === 0, 'every agent process to end');
    expect(pids.filter(alive)).toEqual([]);
  }, 60_000);

  it('closing the bridge ends every agent process it started', async () => {
    const pids: number[] = [];
    const server = await startBridge([], { token: TOKEN, pids });
    const client = acp.client({ name: 'one' }).connect(createHttpStream(server.url, { headers: { Authorization: `Bearer ${TOKEN}` } }));
    await client.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    expect(pids.filter(alive)).toHaveLength(1);
    await server.close();
    await waitFor(() => pids.filter(alive).length === 0, 'the agent process to end');
    client.close();
  });
});
