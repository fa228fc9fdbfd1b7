import { createHttpStream } from '@agentclientprotocol/sdk/experimental/http-client';
import { createWebSocketStream, MemoryAcpCookieStore, type WebSocketConstructor } from '@agentclientprotocol/sdk/experimental/ws-client';
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk/unstable';
import { WebSocket } from 'ws';
import { checkRemoteUrl, REMOTE_MAX_MESSAGE_BYTES, type RemoteEndpoint } from '../../src-shared/remote';
import { LineRing, STDERR_LINES, type AgentHost, type ExitInfo } from '../process/agentProcess';
import { logDebug } from '../log/mainLog';
import { describeRemoteFailure } from './remoteErrors';

export interface RemoteTiming {
  /** How long the TCP/TLS/WebSocket handshake may take. */
  connectTimeoutMs: number;
  /** How often a WebSocket is pinged (the SDK server sends SSE keep-alives every 15 s itself). */
  keepAliveMs: number;
  /** No byte from the agent for this long while an answer is awaited: the connection is dead. */
  stallMs: number;
}

export const DEFAULT_TIMING: RemoteTiming = { connectTimeoutMs: 15_000, keepAliveMs: 15_000, stallMs: 45_000 };

/** The timing for an endpoint: the defaults, with its stall limit where settings give one. */
export function remoteTiming(endpoint: RemoteEndpoint): RemoteTiming {
  if (!endpoint.stallSeconds) return DEFAULT_TIMING;
  const stallMs = endpoint.stallSeconds * 1000;
  return { ...DEFAULT_TIMING, stallMs, keepAliveMs: Math.min(DEFAULT_TIMING.keepAliveMs, stallMs / 3) };
}

/** Socket close codes a person can act on (RFC 6455 §7.4.1). */
function describeClose(code: number | null, reason: string, host: string): string {
  const why = reason ? `: ${reason}` : '';
  if (code === 1009) return `The remote agent at ${host} closed the connection because a message was too large (1009${why}).`;
  if (code === 1008) return `The remote agent at ${host} closed the connection for breaking its rules (1008${why}).`;
  if (code === 1006 || code === null) return `The connection to the remote agent at ${host} was cut (the network or the server dropped it).`;
  return `The remote agent at ${host} closed the connection (${code}${why}).`;
}

function idKey(message: unknown): string | null {
  const id = (message as { id?: unknown })?.id;
  return typeof id === 'string' || typeof id === 'number' ? `${typeof id}:${id}` : null;
}

/**
 * A remote agent as the connection sees a process (`AgentHost`): its messages over the SDK's
 * WebSocket or Streamable HTTP client transport, `exited` when the connection ends (with why,
 * as `lost`), `stderr` holding the connection's own log lines. A watchdog ends a connection on
 * which nothing arrived for `stallMs` while an answer was awaited (a stalled stream or a
 * half-open socket), so no turn waits forever.
 */
export class RemoteAgentHost implements AgentHost {
  readonly stderr = new LineRing(STDERR_LINES);
  readonly exited: Promise<ExitInfo>;
  readonly pid = undefined;
  /** Affinity cookies kept across reconnects, as the RFD asks (one store per host, i.e. per agent). */
  static readonly cookies = new Map<string, MemoryAcpCookieStore>();
  private resolveExit!: (info: ExitInfo) => void;
  private exitInfo: ExitInfo | null = null;
  private readonly host: string;
  private readonly pending = new Set<string>();
  private lastActivity = Date.now();
  private socket: WebSocket | null = null;
  private lastClose: { code: number | null; reason: string } | null = null;
  private timers: ReturnType<typeof setInterval>[] = [];
  private shutdown: (() => void) | null = null;
  private readonly check: ReturnType<typeof checkRemoteUrl>;

  constructor(
    private readonly endpoint: RemoteEndpoint,
    private readonly timing: RemoteTiming = DEFAULT_TIMING,
    private readonly agentId = '',
  ) {
    this.exited = new Promise((resolve) => (this.resolveExit = resolve));
    this.check = checkRemoteUrl(endpoint.url, endpoint.allowInsecure);
    let host = endpoint.url;
    try {
      host = new URL(endpoint.url).host;
    } catch {
      // Reported by the URL check.
    }
    this.host = host;
    if (this.check.ok && this.check.warning) this.stderr.add(`[acp-desktop] warning: ${this.check.warning}`);
  }

  get hasExited(): boolean {
    return this.exitInfo !== null;
  }

  /** Why the connection ended, once it has (null while it is up or after a stop). */
  get lostReason(): string | null {
    return this.exitInfo?.lost ?? null;
  }

  webStreams(): never {
    throw new Error('A remote agent has no stdio; use messages().');
  }

  /** The connection's JSON-RPC messages (opens it; call once). */
  messages(): Stream {
    if (!this.check.ok) {
      const error = this.check.error;
      queueMicrotask(() => this.end(error));
      return failedStream(error);
    }
    const { url, headers } = this.endpoint;
    const cookieStore = cookieStoreFor(this.agentId || url);
    this.stderr.add(`[acp-desktop] connecting to ${url} (${this.check.transport === 'websocket' ? 'WebSocket' : 'Streamable HTTP'})`);
    const sdk =
      this.check.transport === 'websocket'
        ? createWebSocketStream(url, { headers, cookieStore, WebSocket: this.socketClass() })
        : createHttpStream(url, { headers, cookieStore, fetch: this.watchedFetch(), maxMessageBytes: REMOTE_MAX_MESSAGE_BYTES });
    const reader = sdk.readable.getReader();
    const writer = sdk.writable.getWriter();
    this.shutdown = () => {
      void reader.cancel().catch((error) => logDebug('Closing a remote agent connection (reader)', error));
      void writer.close().catch((error) => logDebug('Closing a remote agent connection (writer)', error));
    };
    this.startWatchdog();
    const readable = new ReadableStream<AnyMessage>({
      pull: async (controller) => {
        try {
          const { value, done } = await reader.read();
          if (done) {
            this.end(
              this.lastClose ? describeClose(this.lastClose.code, this.lastClose.reason, this.host) : `The remote agent at ${this.host} closed the connection.`,
            );
            controller.close();
            return;
          }
          this.lastActivity = Date.now();
          const key = 'method' in value ? null : idKey(value);
          if (key) this.pending.delete(key);
          controller.enqueue(value);
        } catch (error) {
          this.end(describeRemoteFailure(error, url));
          controller.error(error);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    });
    const writable = new WritableStream<AnyMessage>({
      write: async (message) => {
        const key = 'method' in message ? idKey(message) : null;
        if (key) this.pending.add(key);
        try {
          await writer.write(message);
        } catch (error) {
          this.end(describeRemoteFailure(error, url));
          throw error;
        }
      },
      close: () => writer.close(),
      abort: (reason) => writer.abort(reason),
    });
    return { readable, writable };
  }

  /** `ws`'s WebSocket with a handshake timeout, a size limit and pings (the stall watchdog sees the pongs). */
  private socketClass(): WebSocketConstructor {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the socket class reports to this host
    const owner = this;
    const timing = this.timing;
    class WatchedSocket extends WebSocket {
      constructor(address: string, protocols?: string | string[], options?: { headers?: Record<string, string> }) {
        super(address, protocols ?? [], { ...options, handshakeTimeout: timing.connectTimeoutMs, maxPayload: REMOTE_MAX_MESSAGE_BYTES + 64 * 1024 });
        owner.socket = this;
        this.on('pong', () => (owner.lastActivity = Date.now()));
        this.on('message', () => (owner.lastActivity = Date.now()));
        this.on('close', (code: number, reason: Buffer) => (owner.lastClose = { code, reason: reason.toString() }));
      }
    }
    return WatchedSocket as unknown as WebSocketConstructor;
  }

  /** fetch with a connect timeout on POST/DELETE and every SSE chunk counted as activity. */
  private watchedFetch(): typeof fetch {
    return async (input, init) => {
      const isStream = (init?.method ?? 'GET') === 'GET';
      const signals = [init?.signal, isStream ? null : AbortSignal.timeout(this.timing.connectTimeoutMs * 2)].filter((s): s is AbortSignal => Boolean(s));
      const response = await fetch(input, { ...init, signal: signals.length ? AbortSignal.any(signals) : undefined });
      this.lastActivity = Date.now();
      if (!isStream || !response.body) return response;
      const counted = response.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform: (chunk, controller) => {
            this.lastActivity = Date.now();
            controller.enqueue(chunk);
          },
        }),
      );
      return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
    };
  }

  private startWatchdog(): void {
    const every = Math.max(50, Math.min(this.timing.keepAliveMs, this.timing.stallMs / 3));
    this.timers.push(
      setInterval(() => {
        if (this.socket?.readyState === WebSocket.OPEN && Date.now() - this.lastActivity >= this.timing.keepAliveMs) this.socket.ping();
        if (this.pending.size > 0 && Date.now() - this.lastActivity > this.timing.stallMs) {
          const seconds = Math.round(this.timing.stallMs / 100) / 10;
          this.end(`No data from the remote agent at ${this.host} for ${seconds} s while waiting for an answer (the connection stalled); it was closed.`);
        }
      }, every),
    );
    for (const timer of this.timers) timer.unref?.();
  }

  /** The connection ended: the first reason wins; everything is closed. */
  private end(lost: string | null): void {
    if (this.exitInfo) return;
    this.exitInfo = lost ? { code: null, signal: null, lost } : { code: 0, signal: null };
    if (lost) this.stderr.add(`[acp-desktop] ${lost}`);
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    this.shutdown?.();
    // A lost connection is not waited for; a stop closes it cleanly (the server then frees the agent).
    if (lost) this.socket?.terminate();
    this.resolveExit(this.exitInfo);
  }

  async stop(): Promise<ExitInfo> {
    this.end(null);
    return this.exited;
  }
}

function cookieStoreFor(key: string): MemoryAcpCookieStore {
  let store = RemoteAgentHost.cookies.get(key);
  if (!store) RemoteAgentHost.cookies.set(key, (store = new MemoryAcpCookieStore()));
  return store;
}

/** A stream that fails at once (a URL refused before any connection). */
function failedStream(message: string): Stream {
  return {
    readable: new ReadableStream({ start: (controller) => controller.error(new Error(message)) }),
    writable: new WritableStream({
      write: () => {
        throw new Error(message);
      },
    }),
  };
}
