import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { AcpServer } from '@agentclientprotocol/sdk/experimental/server';
import { createNodeHttpHandler, createNodeWebSocketUpgradeHandler } from '@agentclientprotocol/sdk/experimental/node';
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk/unstable';
import { WebSocketServer } from 'ws';
import { REMOTE_MAX_MESSAGE_BYTES } from '../../src-shared/remote';
import { AgentProcess, type LaunchSpec } from '../process/agentProcess';
import { logDebug } from '../log/mainLog';
import { ndJsonMessages } from './messageStream';
import { guardStdout } from './rawTap';

/** What the bridge tells about each connection's agent process (for its console and the tests). */
export interface BridgeEvents {
  started?(pid: number | undefined): void;
  exited?(pid: number | undefined, code: number | null, signal: string | null): void;
  stderr?(pid: number | undefined, text: string): void;
  dropped?(pid: number | undefined, bytes: number): void;
}

/** The JSON-RPC id at the start of a dropped line, if it is an answer (no method), to answer in its place. */
function answeredId(head: string): number | string | null {
  if (/"method"\s*:/.test(head)) return null;
  const match = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/.exec(head);
  if (!match) return null;
  return match[1].startsWith('"') ? (JSON.parse(match[1]) as string) : Number(match[1]);
}

/**
 * Connects one ACP connection to a new agent process: the client's messages go to its stdin as
 * newline-delimited JSON, its stdout comes back as messages. The process ends with the
 * connection, and the connection with the process. An answer over the size limit is replaced by
 * an error answer (a client would wait for it forever); other oversized lines are dropped.
 */
function connectProcess(spec: LaunchSpec, stream: Stream, events: BridgeEvents): { closed: Promise<void> } {
  const child = new AgentProcess(spec, (text) => events.stderr?.(child.pid, text));
  events.started?.(child.pid);
  const { input, output } = child.webStreams();
  let inject: ((message: AnyMessage) => void) | null = null;
  const guarded = guardStdout(
    input,
    {
      onGarbage: (line) => events.stderr?.(child.pid, `[stdout, not ACP] ${line.slice(0, 500)}\n`),
      onOversize: (bytes, head) => {
        events.dropped?.(child.pid, bytes);
        const id = answeredId(head ?? '');
        if (id === null) return;
        const mib = (bytes / 1024 / 1024).toFixed(1);
        inject?.({
          jsonrpc: '2.0',
          id,
          error: {
            code: -32603,
            message: `The agent's answer was ${mib} MiB, over the ${REMOTE_MAX_MESSAGE_BYTES / 1024 / 1024} MiB limit of one message over the network; the bridge dropped it.`,
          },
        } as AnyMessage);
      },
    },
    REMOTE_MAX_MESSAGE_BYTES,
  );
  const agent = ndJsonMessages(output, guarded);
  inject = agent.inject;
  const stop = () => void child.stop().catch((error) => logDebug('Stopping a bridged agent', error));
  // Client → agent; when the connection ends (DELETE, socket closed, limits), the process goes.
  void stream.readable
    .pipeTo(agent.writable)
    .catch((error) => logDebug('A bridged connection ended', error))
    .finally(stop);
  // Agent → client; when the process exits, the connection ends.
  void agent.readable.pipeTo(stream.writable).catch((error) => logDebug('A bridged agent stopped', error));
  const closed = child.exited.then((info) => {
    events.exited?.(child.pid, info.code, info.signal);
  });
  return { closed };
}

export interface BridgeHandlers {
  http(req: IncomingMessage, res: ServerResponse): void;
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): Promise<void>;
}

/**
 * The SDK's ACP server (Streamable HTTP and WebSocket on one endpoint) with a new agent process
 * per connection. The caller checks tokens and origins before handing requests here.
 */
export function createBridgeHandlers(spec: LaunchSpec, events: BridgeEvents = {}): BridgeHandlers {
  const server = new AcpServer({
    createAgent: () => ({ connect: (stream: Stream) => connectProcess(spec, stream, events) }),
    maxBufferedBytes: 4 * REMOTE_MAX_MESSAGE_BYTES,
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: REMOTE_MAX_MESSAGE_BYTES });
  return {
    http: createNodeHttpHandler(server, { maxRequestBodyBytes: REMOTE_MAX_MESSAGE_BYTES }),
    upgrade: createNodeWebSocketUpgradeHandler(server, wss),
    close: async () => {
      for (const client of wss.clients) client.terminate();
      await server.close();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
