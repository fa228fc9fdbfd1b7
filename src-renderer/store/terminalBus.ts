import type { SessionEvent } from '../../src-shared/session/events';

/** `replace`: the data is all the output now (an agent's snapshot), not more of it. */
type Listener = (data: string, seq: number, replace: boolean) => void;

/**
 * Terminal output goes straight into the xterm instances, not through React: a view writes
 * what the store holds when it mounts, then every later chunk from here (by `seq`, so a chunk
 * the store already had at mount is never written twice), and every output an agent reports
 * whole for its own terminal (ACP v2 `terminal_update`), which replaces what the view shows.
 */
const listeners = new Map<string, Set<Listener>>();

const key = (sessionId: string, terminalId: string) => `${sessionId}\u0000${terminalId}`;

export function subscribeTerminal(sessionId: string, terminalId: string, listener: Listener): () => void {
  const k = key(sessionId, terminalId);
  let set = listeners.get(k);
  if (!set) listeners.set(k, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
    if (!set.size) listeners.delete(k);
  };
}

export function publishTerminalOutput(sessionId: string, events: readonly SessionEvent[]): void {
  if (!listeners.size) return;
  for (const event of events) {
    let data: string;
    let replace = false;
    if (event.kind === 'terminal.output') data = event.data;
    else if (event.kind === 'agentTerminal.updated' && event.output !== undefined) [data, replace] = [event.output ?? '', true];
    else continue;
    const set = listeners.get(key(sessionId, event.terminalId));
    if (set) for (const listener of set) listener(data, event.seq, replace);
  }
}
