import type { EventName, RequestName } from '../../src-shared/ipc/contract';

/** The object the preload exposes as `window.acpDesktop`: built only from the contract's names. */
export interface ExposedBridge {
  requests: Record<string, (input: unknown) => Promise<unknown>>;
  on: (name: string, listener: (payload: unknown) => void) => () => void;
}

export function exposedBridge(
  requestNames: readonly RequestName[],
  eventNames: readonly EventName[],
  invoke: (name: RequestName, input: unknown) => Promise<unknown>,
  subscribe: (name: EventName, listener: (payload: unknown) => void) => () => void,
): ExposedBridge {
  const requests: ExposedBridge['requests'] = {};
  for (const name of requestNames) requests[name] = (input) => invoke(name, input);
  const allowed = new Set<string>(eventNames);
  return {
    requests: Object.freeze(requests),
    on: (name, listener) => {
      if (!allowed.has(name)) throw new Error(`Unknown event "${name}".`);
      return subscribe(name as EventName, listener);
    },
  };
}
