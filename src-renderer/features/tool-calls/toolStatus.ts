import type { TerminalState, ToolCallEntry } from '../../../src-shared/session/state';

/**
 * The status a card shows. Agents may mark a call `completed` whose command failed (Claude
 * Code's adapter does after a non-zero exit): a terminal of the call that exited non-zero, was
 * killed or could not start makes the card "Failed", never "Done".
 */
export function shownToolStatus(
  entry: Pick<ToolCallEntry, 'status' | 'content'>,
  terminals: Record<string, TerminalState> | undefined,
): { status: string; exitNote: string | null } {
  if (entry.status !== 'completed' || !terminals) return { status: entry.status, exitNote: null };
  for (const content of entry.content) {
    if (content.type !== 'terminal') continue;
    const terminal = terminals[content.terminalId];
    if (!terminal?.exited) continue;
    if (terminal.signal) return { status: 'failed', exitNote: `killed (${terminal.signal})` };
    if (terminal.exitCode !== 0 && terminal.exitCode !== undefined) return { status: 'failed', exitNote: `exit code ${String(terminal.exitCode)}` };
  }
  return { status: entry.status, exitNote: null };
}
