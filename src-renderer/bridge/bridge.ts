import { FrameJoiner } from '../../src-shared/ipc/frameParts';
import type { AppBridge, ContractError, EventName, EventPayload, RequestName, RequestInput, RequestResult } from '../../src-shared/ipc/contract';
import { logged } from '../log';

type Answer = { ok: true; result: unknown } | { ok: false; error: ContractError };

/** An error answered by main, with its contract code. */
export class BridgeError extends Error {
  constructor(
    readonly code: ContractError['code'] | 'disconnected',
    message: string,
  ) {
    super(message);
  }
}

/** `unauthorized`: the host refuses this page's token (it was restarted with another one). */
export type ConnectionState = 'connecting' | 'open' | 'closed' | 'unauthorized';
type ConnectionListener = (state: ConnectionState) => void;

export interface ConnectedBridge extends AppBridge {
  onConnection(listener: ConnectionListener): () => void;
}

/** The typed client of the contract over whichever transport is present. */
export function createBridge(): ConnectedBridge {
  return window.acpDesktop ? electronBridge(window.acpDesktop) : webSocketBridge();
}

function unwrap(answer: Answer): unknown {
  if (answer.ok) return answer.result;
  throw new BridgeError(answer.error.code, answer.error.message);
}

function electronBridge(exposed: NonNullable<Window['acpDesktop']>): ConnectedBridge {
  return {
    async request(name, input) {
      const call = exposed.requests[name];
      if (!call) throw new BridgeError('unknown_request', `Unknown request ${name}`);
      return unwrap((await call(input)) as Answer) as never;
    },
    on(name, listener) {
      return exposed.on(name, listener as (payload: unknown) => void);
    },
    onConnection(listener) {
      listener('open');
      return () => {};
    },
  };
}

/** The token arrives once in the URL; keep it for reloads and take it out of the address bar. */
function takeToken(): string {
  const url = new URL(location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    sessionStorage.setItem('acp-token', fromUrl);
    url.searchParams.delete('token');
    history.replaceState(null, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  return sessionStorage.getItem('acp-token') ?? '';
}

function webSocketBridge(): ConnectedBridge {
  const token = takeToken();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const connectionListeners = new Set<ConnectionListener>();
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let socket: WebSocket | null = null;
  let open: Promise<WebSocket> | null = null;
  let nextId = 1;
  let retry = 0;

  const setState = (state: ConnectionState) => connectionListeners.forEach((l) => l(state));

  const connect = (): Promise<WebSocket> => {
    open ??= new Promise<WebSocket>((resolve, reject) => {
      setState('connecting');
      const protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
      const ws = new WebSocket(`${protocol}//${location.host}/ws?token=${encodeURIComponent(token)}`);
      ws.onopen = () => {
        retry = 0;
        socket = ws;
        setState('open');
        resolve(ws);
      };
      const joiner = new FrameJoiner();
      ws.onmessage = (message) => {
        const frame = joiner.push(String(message.data));
        if (frame === null) return;
        const data = JSON.parse(frame) as { t: string; id?: number; name?: string; payload?: unknown } & Answer;
        if (data.t === 'evt' && data.name) listeners.get(data.name)?.forEach((l) => l(data.payload));
        else if (data.t === 'res' && typeof data.id === 'number') {
          const entry = waiting.get(data.id);
          waiting.delete(data.id);
          if (!entry) return;
          try {
            entry.resolve(unwrap(data));
          } catch (error) {
            entry.reject(error as Error);
          }
        }
      };
      ws.onclose = () => {
        socket = null;
        open = null;
        for (const entry of waiting.values()) entry.reject(new BridgeError('disconnected', 'The connection to the app was lost.'));
        waiting.clear();
        setState('closed');
        // A browser cannot see why an upgrade failed: after a few failures, ask the page's own
        // URL; a 401 means the host runs with another token and retrying will never help.
        if (retry >= 3) {
          void fetch(location.pathname, { cache: 'no-store' })
            .then((response) => {
              if (response.status === 401 && !socket) setState('unauthorized');
            })
            // The host is down: the retries below go on, and the connection state shows it.
            .catch(logged('Asking the host why the connection was refused', 'debug'));
        }
        // A request made while this attempt was pending (e.g. Send while the host restarts)
        // fails now instead of waiting forever on a promise nothing resolves, so the composer
        // puts the person's text back (reject is a no-op when the socket had opened).
        reject(new BridgeError('disconnected', 'Not connected to the app; nothing was sent. Try again once it reconnects.'));
        // The host may be restarting: keep trying, backing off to 2 s.
        // A failed attempt closes the socket, which schedules the next one: the state shows it, the log keeps it.
        setTimeout(() => void connect().catch(logged('Reconnecting to the host', 'debug')), Math.min(2000, 100 * 2 ** retry++));
      };
    });
    return open;
  };
  void connect().catch(logged('Connecting to the host', 'debug'));

  return {
    async request<K extends RequestName>(name: K, input: RequestInput<K>): Promise<RequestResult<K>> {
      const ws = socket ?? (await connect());
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
        ws.send(JSON.stringify({ t: 'req', id, name, input }));
      });
    },
    on<K extends EventName>(name: K, listener: (payload: EventPayload<K>) => void) {
      let set = listeners.get(name);
      if (!set) listeners.set(name, (set = new Set()));
      set.add(listener as (payload: unknown) => void);
      return () => set!.delete(listener as (payload: unknown) => void);
    },
    onConnection(listener) {
      connectionListeners.add(listener);
      listener(socket ? 'open' : 'connecting');
      return () => connectionListeners.delete(listener);
    },
  };
}
