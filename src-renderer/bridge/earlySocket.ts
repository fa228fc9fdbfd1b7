import { FrameJoiner } from '../../src-shared/ipc/frameParts';
import { takeToken } from './token';

/**
 * The browser host's socket, opened by a small script index.html loads before index.js (issue 23,
 * round 5: the page's load). index.js (React DOM) takes a few hundred ms to arrive and run; until
 * now the socket's handshake, the `app.state` round trip, the host's restore of the shown tab and
 * its `session.window` all waited for it. This script does them meanwhile and keeps every frame;
 * the socket bridge (bridge.ts) adopts the socket, replays the frames, and takes the early answers
 * for the same requests instead of asking again. It asks only what the store asks first, with the
 * same input, so nothing changes but when. The socket often opens only after index.js ran: this
 * script goes on asking after the bridge adopted it (its listeners run before the bridge's, which
 * `onAsk` tells of each request before the bridge could ask the same).
 */
export interface EarlySocket {
  socket: WebSocket;
  token: string;
  /** The frames received so far, as sent (parts too), in order. */
  frames: string[];
  /** The requests sent, by id (strings, so they never meet the bridge's numbered ones). */
  asked: { id: string; name: string; input: unknown }[];
  /** Called by the bridge when it takes the socket over: frames are no longer kept; each later request is told to `onAsk`. */
  adopt(onAsk: (asked: { id: string; name: string; input: unknown }) => void): void;
}

declare global {
  interface Window {
    /** The early socket until the bridge takes it; `false` once the bridge started without it (this script came late). */
    acpEarlySocket?: EarlySocket | false;
  }
}

interface Tabs {
  open?: unknown;
  active?: unknown;
}

/** The tab shown, once the host lists it (an answer's or a pushed `app.state`'s tabs). */
function shownTab(app: unknown): string | null {
  const tabs = (app as { tabs?: Tabs } | null)?.tabs;
  const active = tabs?.active;
  return typeof active === 'string' && Array.isArray(tabs?.open) && tabs.open.includes(active) ? active : null;
}

export function openEarlySocket(): EarlySocket | null {
  // Electron has no socket (window.acpDesktop is its bridge); a bridge already running has its own.
  if (typeof window === 'undefined' || window.acpDesktop || typeof WebSocket !== 'function' || window.acpEarlySocket !== undefined) return null;
  const token = takeToken();
  const protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const socket = new WebSocket(`${protocol}//${location.host}/ws?token=${encodeURIComponent(token)}`);
  const frames: string[] = [];
  const asked: EarlySocket['asked'] = [];
  const joiner = new FrameJoiner();
  let adopted: ((asked: { id: string; name: string; input: unknown }) => void) | null = null;
  const ask = (name: string, input: unknown) => {
    const request = { id: `early:${asked.length + 1}`, name, input };
    asked.push(request);
    socket.send(JSON.stringify({ t: 'req', ...request }));
    adopted?.(request);
  };
  // Listeners, not `on…` handlers: the bridge sets those, and these run first.
  socket.addEventListener('open', () => ask('app.state', {}), { once: true });
  const keep = (message: MessageEvent) => frames.push(String(message.data));
  const watch = (message: MessageEvent) => {
    const frame = joiner.push(String(message.data));
    if (frame === null) return;
    let data: { t?: string; id?: unknown; name?: string; ok?: boolean; result?: unknown; payload?: unknown };
    try {
      data = JSON.parse(frame) as typeof data;
    } catch {
      return; // The bridge reads it again and says what is wrong.
    }
    const app = data.t === 'res' && data.id === 'early:1' && data.ok ? data.result : data.t === 'evt' && data.name === 'app.state' ? data.payload : null;
    const shown = shownTab(app);
    if (shown === null) return;
    // Done: the rest is the bridge's to read (it may be large).
    socket.removeEventListener('message', watch);
    ask('session.window', { sessionId: shown });
  };
  socket.addEventListener('message', keep);
  socket.addEventListener('message', watch);
  const early: EarlySocket = {
    socket,
    token,
    frames,
    asked,
    adopt(onAsk) {
      adopted = onAsk;
      socket.removeEventListener('message', keep);
    },
  };
  window.acpEarlySocket = early;
  return early;
}

/** The early socket, once: the first bridge takes it; after that, or when this script has not run yet, it must not open one (`false`). */
export function takeEarlySocket(): EarlySocket | null {
  const early = window.acpEarlySocket || null;
  window.acpEarlySocket = false;
  return early;
}

export { takeToken };
