import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A browser WebSocket as far as the bridge and the early script use it: listeners run before the `on…` handler. */
class FakeSocket extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 3;
  static made: FakeSocket[] = [];
  readyState = FakeSocket.CONNECTING;
  readonly sent: { id: number | string; name: string; input: unknown }[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((message: MessageEvent) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) {
    super();
    FakeSocket.made.push(this);
  }
  send(text: string) {
    this.sent.push(JSON.parse(text) as FakeSocket['sent'][number]);
  }
  open() {
    this.readyState = FakeSocket.OPEN;
    this.dispatchEvent(new Event('open'));
    this.onopen?.();
  }
  receive(frame: object) {
    const message = new MessageEvent('message', { data: JSON.stringify(frame) });
    this.dispatchEvent(message);
    this.onmessage?.(message);
  }
  close() {
    this.readyState = FakeSocket.CLOSED;
    this.dispatchEvent(new Event('close'));
    this.onclose?.();
  }
}

const app = (tabs: { open: string[]; active: string | null }) => ({ host: 'browser', tabs });
const windowOf = (sessionId: string) => ({ state: { sessionId }, entries: [] });
/** A browser page opened with the host's token, with no early socket yet. */
async function pageWithToken(): Promise<void> {
  FakeSocket.made = [];
  const store = new Map<string, string>();
  vi.stubGlobal('location', new URL('http://127.0.0.1:9999/?token=secret'));
  vi.stubGlobal('history', { replaceState: vi.fn() });
  vi.stubGlobal('sessionStorage', { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => store.set(k, v) });
  vi.stubGlobal('WebSocket', FakeSocket);
  // `false`: the early entry's own call on import opens nothing; each test opens it itself.
  vi.stubGlobal('window', { acpEarlySocket: false });
  await import('../early');
}

/** Lets the bridge's replay (one frame a task) and the promises run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('the socket bridge adopts the early script’s socket (issue 23, round 5)', () => {
  let early: typeof import('./earlySocket');
  let bridgeModule: typeof import('./bridge');
  beforeEach(async () => {
    await pageWithToken();
    early = await import('./earlySocket');
    bridgeModule = await import('./bridge');
    (globalThis.window as Window).acpEarlySocket = undefined;
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('takes the early answer to app.state and the shown tab’s window instead of asking again', async () => {
    const opened = early.openEarlySocket()!;
    const socket = FakeSocket.made[0];
    expect(socket.url).toBe('ws://127.0.0.1:9999/ws?token=secret');
    socket.open();
    expect(socket.sent).toEqual([{ t: 'req', id: 'early:1', name: 'app.state', input: {} }]);
    // The host answers before index.js has run: no tab yet (restoring), then the shown one is pushed.
    socket.receive({ t: 'res', id: 'early:1', ok: true, result: app({ open: [], active: null }) });
    socket.receive({ t: 'evt', name: 'app.state', payload: app({ open: ['s_a'], active: 's_a' }) });
    expect(socket.sent.map((r) => r.name)).toEqual(['app.state', 'session.window']);

    const bridge = bridgeModule.createBridge();
    expect(FakeSocket.made).toHaveLength(1);
    expect(opened.frames).toHaveLength(2);
    const seen: string[] = [];
    const windows: Promise<unknown>[] = [];
    bridge.on('app.state', (state) => {
      seen.push(`event ${state.tabs.open.join()}`);
      windows.push(bridge.request('session.window', { sessionId: 's_a' }));
    });
    const states: ('connecting' | 'open' | 'closed' | 'unauthorized')[] = [];
    bridge.onConnection((state) => states.push(state));
    expect(states).toEqual(['open']);
    const answer = bridge.request('app.state', {}).then((state) => seen.push(`answer ${state.tabs.open.join()}`));
    await settle();
    await answer;
    // As on a live socket: the answer before the event that came after it.
    expect(seen).toEqual(['answer ', 'event s_a']);
    socket.receive({ t: 'res', id: 'early:2', ok: true, result: windowOf('s_a') });
    expect(await windows[0]).toEqual(windowOf('s_a'));
    // Nothing asked twice.
    expect(socket.sent.map((r) => r.id)).toEqual(['early:1', 'early:2']);
    // Other requests go out numbered, on the same socket.
    void bridge.request('settings.read', {});
    await settle();
    expect(socket.sent.at(-1)).toMatchObject({ id: 1, name: 'settings.read' });
  });

  it('goes on asking once the bridge adopted a socket still opening', async () => {
    early.openEarlySocket();
    const socket = FakeSocket.made[0];
    const bridge = bridgeModule.createBridge();
    const states: string[] = [];
    bridge.onConnection((state) => states.push(state));
    let state: Promise<unknown> | null = null;
    bridge.onConnection((connection) => {
      if (connection === 'open') state = bridge.request('app.state', {});
    });
    const window: Promise<unknown>[] = [];
    bridge.on('app.state', () => window.push(bridge.request('session.window', { sessionId: 's_b' })));
    socket.open();
    expect(states).toEqual(['connecting', 'open']);
    // The early script asked first; the bridge's same request took its answer.
    expect(socket.sent).toEqual([{ t: 'req', id: 'early:1', name: 'app.state', input: {} }]);
    socket.receive({ t: 'res', id: 'early:1', ok: true, result: app({ open: [], active: null }) });
    expect(await state).toEqual(app({ open: [], active: null }));
    socket.receive({ t: 'evt', name: 'app.state', payload: app({ open: ['s_a', 's_b'], active: 's_b' }) });
    socket.receive({ t: 'res', id: 'early:2', ok: true, result: windowOf('s_b') });
    expect(await window[0]).toEqual(windowOf('s_b'));
    expect(socket.sent.map((r) => `${r.id} ${r.name}`)).toEqual(['early:1 app.state', 'early:2 session.window']);
  });

  it('opens its own socket when the early one closed before it was adopted (a refused token, a host restart)', async () => {
    vi.useFakeTimers();
    try {
      early.openEarlySocket();
      FakeSocket.made[0].close();
      const bridge = bridgeModule.createBridge();
      const states: string[] = [];
      bridge.onConnection((state) => states.push(state));
      const pending = bridge.request('app.state', {});
      const failed = pending.catch((error: Error) => error.message);
      await vi.advanceTimersByTimeAsync(1);
      expect(states).toEqual(['connecting', 'closed']);
      expect(await failed).toMatch(/Not connected to the app/);
      await vi.advanceTimersByTimeAsync(200);
      expect(FakeSocket.made).toHaveLength(2);
      expect(FakeSocket.made[1].url).toBe('ws://127.0.0.1:9999/ws?token=secret');
      FakeSocket.made[1].open();
      expect(states.at(-1)).toBe('open');
    } finally {
      vi.useRealTimers();
    }
  });

  it('opens its own socket without an early one, and the early script opens none once a bridge runs', () => {
    const bridge = bridgeModule.createBridge();
    expect(FakeSocket.made).toHaveLength(1);
    expect(early.openEarlySocket()).toBeNull();
    expect(FakeSocket.made).toHaveLength(1);
    const states: string[] = [];
    bridge.onConnection((state) => states.push(state));
    FakeSocket.made[0].open();
    expect(states).toEqual(['connecting', 'open']);
  });
});

describe('an early answer the page has not taken yet', () => {
  beforeEach(async () => {
    await pageWithToken();
    (globalThis.window as Window).acpEarlySocket = undefined;
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('is dropped once an event changes that session: the page then asks main again', async () => {
    const { openEarlySocket } = await import('./earlySocket');
    const { createBridge } = await import('./bridge');
    openEarlySocket();
    const socket = FakeSocket.made[0];
    socket.open();
    socket.receive({ t: 'res', id: 'early:1', ok: true, result: app({ open: ['s_a'], active: 's_a' }) });
    socket.receive({ t: 'res', id: 'early:2', ok: true, result: windowOf('s_a') });
    const bridge = createBridge();
    await settle();
    // New events of s_a after the early window: that answer misses them.
    socket.receive({ t: 'evt', name: 'session.events', payload: { sessionId: 's_a', events: [] } });
    await settle();
    void bridge.request('session.window', { sessionId: 's_a' });
    await settle();
    expect(socket.sent.at(-1)).toMatchObject({ id: 1, name: 'session.window', input: { sessionId: 's_a' } });
    // The app state answer had no such event: still taken.
    expect(await bridge.request('app.state', {})).toEqual(app({ open: ['s_a'], active: 's_a' }));
    expect(socket.sent).toHaveLength(3);
  });
});
