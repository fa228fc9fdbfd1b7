import type { SessionState, TerminalState, TranscriptEntry } from './state';

/*
 * Terminals travel with the entries that show them (issue 23): a session that ran a command in
 * every other turn holds thousands of terminals and their output (7.6 MB at 50,000 entries), so
 * a window or a page of entries carries only the terminals its rows show, the ones still running
 * and the newest few (the side panel's list). The rest stay in main until their rows load.
 */

/** How many of the newest terminals the side panel lists (older ones show with their tool calls). */
export const PANEL_TERMINALS = 12;

/** The terminals the tool calls among `entries` show. */
export function terminalsShownBy(state: SessionState, entries: readonly (TranscriptEntry | undefined)[]): Record<string, TerminalState> {
  const out: Record<string, TerminalState> = {};
  for (const entry of entries) {
    if (entry?.kind !== 'tool') continue;
    for (const content of entry.content) {
      if (content.type !== 'terminal') continue;
      const terminal = state.terminals[content.terminalId];
      if (terminal) out[content.terminalId] = terminal;
    }
  }
  return out;
}

/**
 * Whether a terminal can still change: a client terminal until it has exited and been released;
 * an agent's own terminal always (the agent may report it again, and the page's fold must start
 * from main's copy).
 */
function mayChange(terminal: TerminalState): boolean {
  return terminal.owner === 'agent' || !terminal.exited || !terminal.released;
}

/** The terminals the side panel lists, oldest first: the newest PANEL_TERMINALS and any still running. */
export function panelTerminals(terminals: Record<string, TerminalState>): TerminalState[] {
  const all = Object.values(terminals).filter((terminal) => !terminal.interactive);
  const newest = all.length - PANEL_TERMINALS;
  return all.filter((terminal, i) => i >= newest || mayChange(terminal));
}

/**
 * The terminals a window of `entries` needs, in main's order (the order they were created): those
 * its rows show, every one that may still change, and the newest PANEL_TERMINALS the panel lists.
 */
export function windowTerminals(state: SessionState, entries: readonly TranscriptEntry[]): Record<string, TerminalState> {
  const shown = terminalsShownBy(state, entries);
  const listed = new Set(panelTerminals(state.terminals));
  const out: Record<string, TerminalState> = {};
  for (const [id, terminal] of Object.entries(state.terminals)) {
    if (id in shown || listed.has(terminal) || mayChange(terminal)) out[id] = terminal;
  }
  return out;
}

/** How many terminals the side panel could list: every one but the sign-in terminals. */
export function panelTerminalCount(state: SessionState): number {
  let count = 0;
  for (const id in state.terminals) if (!state.terminals[id].interactive) count++;
  return count;
}

/**
 * The page's side: `state` with the terminals a page of entries brought that it did not have,
 * put before the ones it had (they are older than the window's: the panel lists the last ones).
 */
export function withTerminals(state: SessionState, terminals: Record<string, TerminalState> | undefined): SessionState {
  if (!terminals) return state;
  const missing = Object.keys(terminals).filter((id) => !(id in state.terminals));
  if (missing.length === 0) return state;
  const added: Record<string, TerminalState> = {};
  for (const id of missing) added[id] = terminals[id];
  return { ...state, terminals: { ...added, ...state.terminals } };
}
