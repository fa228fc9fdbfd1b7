import { describe, expect, it } from 'vitest';
import { eventNames, requestNames, type EventName } from '../../src-shared/ipc/contract';
import { exposedBridge, MAX_BUFFERED, type ExposedBridge } from './bridgeShape';

/** A stand-in for ipcRenderer's event side. */
function fakeChannel() {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  return {
    subscribe: (name: EventName, listener: (payload: unknown) => void) => {
      const set = listeners.get(name) ?? new Set();
      set.add(listener);
      listeners.set(name, set);
      return () => set.delete(listener);
    },
    send: (name: string, payload: unknown) => listeners.get(name)?.forEach((listener) => listener(payload)),
    count: (name: string) => listeners.get(name)?.size ?? 0,
  };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('exposedBridge', () => {
  it('exposes exactly one function per contract request, and nothing else', async () => {
    const calls: [string, unknown][] = [];
    const bridge = exposedBridge(requestNames, eventNames, async (name, input) => calls.push([name, input]), fakeChannel().subscribe);
    expect(Object.keys(bridge).sort()).toEqual(['on', 'requests']);
    expect(Object.keys(bridge.requests).sort()).toEqual([...requestNames].sort());
    expect(Object.isFrozen(bridge.requests)).toBe(true);
    await bridge.requests['app.state']({});
    expect(calls).toEqual([['app.state', {}]]);
  });

  it('has a type that the preload checks against: a bridge missing a contract request does not satisfy it', () => {
    const bridge = exposedBridge(requestNames, eventNames, async () => null, fakeChannel().subscribe);
    const { 'app.state': _dropped, ...missing } = bridge.requests;
    // `npm run typecheck` fails if this line type-checks (the old check accepted any object).
    // @ts-expect-error 'app.state' is missing
    const incomplete: ExposedBridge = { requests: missing, on: bridge.on };
    expect(Object.keys(incomplete.requests)).not.toContain('app.state');
    const complete: ExposedBridge = bridge;
    expect(Object.keys(complete.requests)).toHaveLength(requestNames.length);
  });

  it('refuses to listen to a channel outside the contract', () => {
    const bridge = exposedBridge(requestNames, eventNames, async () => null, fakeChannel().subscribe);
    expect(() => bridge.on('req:session.prompt', () => {})).toThrow(/Unknown event/);
    expect(() => bridge.on('anything', () => {})).toThrow(/Unknown event/);
  });

  it('holds ui.command events sent before the renderer listens, then delivers them in order', async () => {
    const channel = fakeChannel();
    const bridge = exposedBridge(requestNames, eventNames, async () => null, channel.subscribe, ['ui.command']);
    channel.send('ui.command', { command: 'installAgent', agentId: 'a' });
    channel.send('ui.command', { command: 'focusSession', sessionId: 's' });
    channel.send('app.state', { ignored: true });
    const seen: unknown[] = [];
    bridge.on('ui.command', (payload) => seen.push(payload));
    channel.send('ui.command', { command: 'settings' });
    await flush();
    expect(seen).toEqual([{ command: 'installAgent', agentId: 'a' }, { command: 'focusSession', sessionId: 's' }, { command: 'settings' }]);
    // The holding listener is gone; only the renderer's own remains.
    expect(channel.count('ui.command')).toBe(1);
  });

  it('holds at most MAX_BUFFERED events and does not hold unbuffered ones', async () => {
    const channel = fakeChannel();
    const bridge = exposedBridge(requestNames, eventNames, async () => null, channel.subscribe, ['ui.command']);
    for (let i = 0; i < MAX_BUFFERED + 5; i++) channel.send('ui.command', { command: 'nextTab', sessionId: String(i) });
    channel.send('app.state', { before: true });
    const commands: unknown[] = [];
    const states: unknown[] = [];
    bridge.on('ui.command', (payload) => commands.push(payload));
    bridge.on('app.state', (payload) => states.push(payload));
    await flush();
    expect(commands).toHaveLength(MAX_BUFFERED);
    expect(commands[0]).toEqual({ command: 'nextTab', sessionId: '5' });
    expect(states).toEqual([]);
  });
});

describe('exposedBridge unsubscribe', () => {
  it('delivers nothing held to a listener that unsubscribed at once', async () => {
    const channel = fakeChannel();
    const bridge = exposedBridge(requestNames, eventNames, async () => null, channel.subscribe, ['ui.command']);
    channel.send('ui.command', { command: 'settings' });
    const seen: unknown[] = [];
    const off = bridge.on('ui.command', (payload) => seen.push(payload));
    off();
    await flush();
    channel.send('ui.command', { command: 'closeTab' });
    expect(seen).toEqual([]);
    expect(channel.count('ui.command')).toBe(0);
  });
});
