import type { EventName, RequestName } from '../../src-shared/ipc/contract';

/** The object the preload exposes as `window.acpDesktop`: built only from the contract's names. */
export interface ExposedBridge {
  /** Exactly the contract's requests: a name missing here is a type error in the preload. */
  requests: Readonly<Record<RequestName, (input: unknown) => Promise<unknown>>>;
  on: (name: string, listener: (payload: unknown) => void) => () => void;
}

/** How many payloads a buffered event keeps before its first listener comes (oldest dropped). */
export const MAX_BUFFERED = 20;

/**
 * Builds the bridge from the contract's names: one function per request, a listener per event,
 * nothing else.
 *
 * Events named in `buffered` are held from the moment the preload runs until the renderer
 * first listens to them, then handed to that listener in order. Main may send them before the
 * renderer has subscribed (a deep link that launched the app, a notification clicked while
 * the page loads); other events are state the renderer asks for anyway, so they are not held.
 */
export function exposedBridge(
  requestNames: readonly RequestName[],
  eventNames: readonly EventName[],
  invoke: (name: RequestName, input: unknown) => Promise<unknown>,
  subscribe: (name: EventName, listener: (payload: unknown) => void) => () => void,
  buffered: readonly EventName[] = [],
): ExposedBridge {
  const requests: Partial<Record<RequestName, (input: unknown) => Promise<unknown>>> = {};
  for (const name of requestNames) requests[name] = (input) => invoke(name, input);
  const allowed = new Set<string>(eventNames);
  const held = new Map<string, { payloads: unknown[]; stop: () => void }>();
  for (const name of buffered) {
    if (!allowed.has(name) || held.has(name)) continue;
    const payloads: unknown[] = [];
    const stop = subscribe(name, (payload) => {
      payloads.push(payload);
      if (payloads.length > MAX_BUFFERED) payloads.shift();
    });
    held.set(name, { payloads, stop });
  }
  return {
    // Complete when `requestNames` is the contract's list (bridgeShape.test checks the keys).
    requests: Object.freeze(requests) as ExposedBridge['requests'],
    on: (name, listener) => {
      if (!allowed.has(name)) throw new Error(`Unknown event "${name}".`);
      const buffer = held.get(name);
      if (!buffer) return subscribe(name as EventName, listener);
      held.delete(name);
      // Held payloads go first, after `on` returns; anything arriving meanwhile queues behind them.
      let queue: unknown[] | null = buffer.payloads.splice(0);
      const off = subscribe(name as EventName, (payload) => (queue ? queue.push(payload) : listener(payload)));
      buffer.stop();
      let listening = true;
      queueMicrotask(() => {
        const payloads = queue ?? [];
        queue = null;
        if (listening) payloads.forEach((payload) => listener(payload));
      });
      return () => {
        listening = false;
        off();
      };
    },
  };
}
