import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isLoopbackHost } from '../../src-shared/remote';
import { createBridgeHandlers, type BridgeEvents } from '../acp/bridgeAgent';
import type { LaunchSpec } from '../process/agentProcess';
import { logged } from '../log/mainLog';

export interface AgentServerOptions {
  /** The local stdio agent to serve: one process of it per connection. */
  agent: LaunchSpec;
  host?: string;
  port?: number;
  /** Required on every request as `Authorization: Bearer <token>` (default: a random one). */
  token?: string;
  events?: BridgeEvents;
}

export interface AgentServer {
  /** The endpoint clients connect to (`http://host:port/acp`; `ws://` works on the same URL). */
  url: string;
  port: number;
  token: string;
  /** Set when bound to a non-loopback address: what that exposes. */
  warning: string | null;
  /** Requests and upgrades seen, and how many were refused (401/403/404): what a retry storm would show. */
  readonly stats: { requests: number; refused: number };
  close(): Promise<void>;
}

/** The one path the transport RFD defines. */
export const ACP_PATH = '/acp';

function tokenMatches(given: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)$/i.exec(given ?? '');
  if (!match) return false;
  const a = Buffer.from(match[1]);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Why a request is refused (status and text), or null to let it through. The token on every
 * request (constant-time compare); a browser page from another origin is refused even with it
 * (an origin that is not a URL counts as another origin); only the `/acp` endpoint exists.
 */
export function checkRequest(req: Pick<IncomingMessage, 'url' | 'headers'>, token: string): { status: number; text: string } | null {
  if (!tokenMatches(req.headers.authorization, token)) return { status: 401, text: 'Unauthorized: send the bridge token as "Authorization: Bearer <token>".' };
  const origin = req.headers.origin;
  if (origin !== undefined) {
    let host: string | null = null;
    try {
      host = typeof origin === 'string' ? new URL(origin).host : null;
    } catch {
      host = null;
    }
    if (host !== req.headers.host) return { status: 403, text: 'Forbidden: requests from another origin are refused.' };
  }
  const path = (req.url ?? '/').split('?')[0];
  if (path !== ACP_PATH) return { status: 404, text: `Not found: the ACP endpoint is ${ACP_PATH}.` };
  return null;
}

/**
 * `acp-desktop agent-server`: a local stdio agent served over ACP's Streamable HTTP and
 * WebSocket transport (docs/REMOTE.md), with the browser host's security model: loopback by
 * default, a token on every request, origins checked, one agent process per connection,
 * cleaned up when the connection ends.
 */
export async function startAgentServer(options: AgentServerOptions): Promise<AgentServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const host = options.host ?? '127.0.0.1';
  const bridge = createBridgeHandlers(options.agent, options.events);
  const stats = { requests: 0, refused: 0 };
  const server: Server = createServer((req, res) => {
    stats.requests++;
    const refused = checkRequest(req, token);
    if (refused) {
      stats.refused++;
      req.resume();
      res.writeHead(refused.status, { 'content-type': 'text/plain; charset=utf-8', ...(refused.status === 401 ? { 'www-authenticate': 'Bearer' } : {}) });
      res.end(`${refused.text}\n`);
      return;
    }
    bridge.http(req, res);
  });
  server.on('upgrade', (req, socket, head) => {
    socket.on('error', logged('A socket asking to upgrade failed (a client that went away)', 'debug'));
    stats.requests++;
    const refused = checkRequest(req, token);
    if (refused) {
      stats.refused++;
      socket.end(
        `HTTP/1.1 ${refused.status} ${refused.status === 401 ? 'Unauthorized' : refused.status === 403 ? 'Forbidden' : 'Not Found'}\r\nConnection: close\r\n\r\n`,
      );
      return;
    }
    bridge.upgrade(req, socket, head);
  });
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const warning = isLoopbackHost(host)
    ? null
    : `Listening on ${host}, not loopback: anyone who can reach this port and has the token can run the agent with your rights on this machine. ` +
      'The bridge speaks plain HTTP: put a TLS proxy in front of it (docs/REMOTE.md) or reach it through an SSH tunnel.';
  return {
    url: `http://${shownHost}:${port}${ACP_PATH}`,
    port,
    token,
    warning,
    stats,
    close: async () => {
      await bridge.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
