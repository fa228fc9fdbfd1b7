import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AcpServer } from '@agentclientprotocol/sdk/experimental/server';
import { createNodeHttpHandler, createNodeWebSocketUpgradeHandler } from '@agentclientprotocol/sdk/experimental/node';
import { ndJsonStream, type Stream } from '@agentclientprotocol/sdk/unstable';
import { WebSocketServer } from 'ws';
import { inProcessAgents } from './inProcessAgent';
import { FIXTURE_AGENT, makeCore, type HarnessOptions } from './coreHarness';
import { startAgentServer, type AgentServer } from '../server/agentServer';
import type { ProtocolSetting, SettingsInput } from '../../src-shared/settings';

/** A custom agent entry of settings.json, as written. */
type AgentEntry = NonNullable<SettingsInput['agents']>[number];

/** The fixture agent behind the bridge (`acp-desktop agent-server`), on loopback, with a known token. */
export async function startBridge(args: string[] = [], options: { token?: string; pids?: number[]; port?: number } = {}): Promise<AgentServer> {
  return startAgentServer({
    port: options.port,
    agent: { command: process.execPath, args: [FIXTURE_AGENT, '--delay', '0', ...args], env: {} },
    token: options.token ?? 'bridge-token-for-tests-0123456789',
    events: { started: (pid) => pid !== undefined && options.pids?.push(pid) },
  });
}

/** A remote agent entry for settings.json. */
export function remoteAgent(url: string, extra: Partial<AgentEntry> = {}): AgentEntry {
  return { id: 'remote', name: 'Remote Fixture', url, headers: { Authorization: 'Bearer bridge-token-for-tests-0123456789' }, ...extra };
}

/** A core whose only agent is remote (`url`), under `protocol`. */
export function makeRemoteCore(agent: AgentEntry, protocol: ProtocolSetting, options: HarnessOptions = {}) {
  return makeCore([], { agents: [agent], agentOverrides: { [agent.id]: { protocol } } }, { ...options, protocol });
}

/**
 * The fixture agent behind the SDK's own ACP server (`AcpServer` with its Node adapters), as
 * another implementation of the transport would serve it: no bridge, no token. The fixture runs
 * in this process, one per connection. `stallSessionStreams()` makes every session event stream
 * stop delivering (its socket stays open): a stalled SSE stream.
 */
export async function startSdkServer(): Promise<{
  url: string;
  close(): Promise<void>;
  stallSessionStreams(): void;
  /** Session event streams are refused with 409 from now on (as when another client holds them). */
  refuseSessionStreams(): void;
  connections: () => number;
}> {
  let stalled = false;
  let conflict = false;
  let connections = 0;
  const server = new AcpServer({
    createAgent: () => ({
      connect: (stream: Stream) => {
        connections++;
        const host = inProcessAgents()({ command: process.execPath, args: [FIXTURE_AGENT, '--delay', '0', '--resume'], env: {} });
        const { input, output } = host.webStreams();
        const agent = ndJsonStream(output, input);
        void stream.readable
          .pipeTo(agent.writable)
          .catch(() => {})
          .finally(() => void host.stop());
        void agent.readable.pipeTo(stream.writable).catch(() => {});
        return { closed: host.exited.then(() => {}) };
      },
    }),
  });
  const wss = new WebSocketServer({ noServer: true });
  const handle = createNodeHttpHandler(server);
  const http = createServer((req, res) => {
    if (req.method === 'GET' && req.headers['acp-session-id'] && conflict) {
      res.writeHead(409, { 'content-type': 'text/plain' }).end('Outbound stream already has an active receiver');
      return;
    }
    if (req.method === 'GET' && req.headers['acp-session-id']) {
      const write = res.write.bind(res);
      // Once stalled, nothing more reaches the client; the response stays open.
      res.write = ((chunk: unknown, ...rest: unknown[]) => (stalled ? true : (write as (...args: unknown[]) => boolean)(chunk, ...rest))) as typeof res.write;
    }
    handle(req, res);
  });
  http.on('upgrade', createNodeWebSocketUpgradeHandler(server, wss));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/acp`,
    connections: () => connections,
    stallSessionStreams: () => void (stalled = true),
    refuseSessionStreams: () => void (conflict = true),
    close: async () => {
      for (const client of wss.clients) client.terminate();
      await server.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
