import type { AppBridge, ContractError, EventName, EventPayload, RequestName, RequestInput, RequestResult } from '../../src-shared/ipc/contract';
import { logged } from '../log';
// From the early entry, not their own modules: see early.ts.
import { FrameJoiner, takeEarlySocket, takeToken } from '../early';

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

/** The same request: its name and input as sent. */
const requestKey = (name: string, input: unknown) => `${name} ${JSON.stringify(input)}`;

function webSocketBridge(): ConnectedBridge {
  let early = takeEarlySocket();
  const token = early?.token ?? takeToken();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const connectionListeners = new Set<ConnectionListener>();
  const waiting = new Map<number | string, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  // The early socket's requests not yet asked again by the page (by `requestKey`), and the answers
  // that came before the page asked: the page's same request takes them instead of asking twice.
  const preAsked = new Map<string, string>();
  const earlyAnswers = new Map<string, Answer>();
  let socket: WebSocket | null = null;
  let open: Promise<WebSocket> | null = null;
  let nextId = 1;
  let retry = 0;

  const setState = (state: ConnectionState) => connectionListeners.forEach((l) => l(state));
  // An early answer nobody took yet is dropped once an event changes what it answered: the page
  // asking later gets a fresh answer, not one that misses what the event said.
  const dropStale = (event: string, payload: unknown) => {
    const changed =
      event === 'app.state'
        ? 'app.state'
        : event === 'session.events'
          ? requestKey('session.window', { sessionId: (payload as { sessionId?: unknown }).sessionId })
          : null;
    for (const [key, id] of preAsked) {
      if (!earlyAnswers.has(id) || (key !== changed && !key.startsWith(`${changed} `))) continue;
      preAsked.delete(key);
      earlyAnswers.delete(id);
    }
  };

  const connect = (): Promise<WebSocket> => {
    open ??= new Promise<WebSocket>((resolve, reject) => {
      setState('connecting');
      const protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
      const adopted = early;
      early = null;
      // From now on the bridge hears the frames; a request the early script sends later (its
      // listeners run before the bridge's) is taken as asked before the page asks the same.
      adopted?.adopt((asked) => preAsked.set(requestKey(asked.name, asked.input), asked.id));
      const ws = adopted?.socket ?? new WebSocket(`${protocol}//${location.host}/ws?token=${encodeURIComponent(token)}`);
      const opened = () => {
        retry = 0;
        socket = ws;
        setState('open');
        resolve(ws);
      };
      ws.onopen = opened;
      const joiner = new FrameJoiner();
      const receive = (text: string) => {
        const frame = joiner.push(text);
        if (frame === null) return;
        const data = JSON.parse(frame) as { t: string; id?: number | string; name?: string; payload?: unknown } & Answer;
        if (data.t === 'evt' && data.name) {
          dropStale(data.name, data.payload);
          listeners.get(data.name)?.forEach((l) => l(data.payload));
        } else if (data.t === 'res' && (typeof data.id === 'number' || typeof data.id === 'string')) {
          const entry = waiting.get(data.id);
          waiting.delete(data.id);
          if (!entry) {
            if (typeof data.id === 'string' && [...preAsked.values()].includes(data.id)) earlyAnswers.set(data.id, data);
            return;
          }
          try {
            entry.resolve(unwrap(data));
          } catch (error) {
            entry.reject(error as Error);
          }
        }
      };
      // The early socket's frames are replayed first, one a task as they came (a request's answer
      // is seen before the next frame's event, as on a live socket), then the live ones follow.
      const replay = adopted ? [...adopted.frames] : [];
      const next = () => {
        const text = replay.shift();
        if (text === undefined) return;
        receive(text);
        if (replay.length) setTimeout(next, 0);
      };
      ws.onmessage = (message) => {
        if (replay.length) replay.push(String(message.data));
        else receive(String(message.data));
      };
      const closed = () => {
        socket = null;
        open = null;
        preAsked.clear();
        earlyAnswers.clear();
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
      ws.onclose = closed;
      if (adopted) {
        for (const { id, name, input } of adopted.asked) preAsked.set(requestKey(name, input), id);
        if (replay.length) setTimeout(next, 0);
        // Its open or close may have happened before this bridge listened (a close as a task:
        // `closed` clears `open`, which is assigned only once this function returns).
        if (ws.readyState === WebSocket.OPEN) opened();
        else if (ws.readyState === WebSocket.CLOSED) setTimeout(closed, 0);
      }
    });
    return open;
  };
  void connect().catch(logged('Connecting to the host', 'debug'));

  return {
    async request<K extends RequestName>(name: K, input: RequestInput<K>): Promise<RequestResult<K>> {
      const key = requestKey(name, input);
      const earlyId = preAsked.get(key);
      if (earlyId !== undefined) {
        preAsked.delete(key);
        const answer = earlyAnswers.get(earlyId);
        earlyAnswers.delete(earlyId);
        if (answer) return unwrap(answer) as RequestResult<K>;
        return new Promise((resolve, reject) => void waiting.set(earlyId, { resolve: resolve as (v: unknown) => void, reject }));
      }
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
