import type { AgentCapabilities } from '../../src-shared/session/controls';
import type { SessionState } from '../../src-shared/session/state';
import type { LineRange } from '../store/eventLog';
import { foldLogFile, saveSnapshot, type LogOffsets } from '../store/logSnapshot';
import type { Session } from './session';
import { sessionFold } from './sessionFold';
import { canReconnect, readonlyReason } from './sessionConnect';

/** A snapshot is written when opening read at least this many events past the last one (tests set 0). */
export const snapshotPolicy = { minEvents: 500 };

/**
 * Folds a session's log: its state, what its agent said it could do when it last connected
 * (for a read-only restore), where its damaged lines are and how many no earlier run reported. Null for no session.
 * Starts from the snapshot beside the log when it fits (`logSnapshot.ts`), and leaves a new one
 * when much of the log had to be read, so the next open reads only what came after.
 */
export async function foldLog(file: string): Promise<{
  state: SessionState;
  capabilities: AgentCapabilities | null | undefined;
  unreported: number;
  damaged: LineRange[];
  offsets: LogOffsets;
  eventsParsed: number;
  /** Bytes of the log the state folds (whole lines: a torn last line is outside). */
  logSize: number;
} | null> {
  const folded = await foldLogFile(file, sessionFold);
  if (!folded.state || !folded.state.state.agentId) return null;
  if (folded.eventsParsed > 0 && folded.eventsParsed >= snapshotPolicy.minEvents) saveSnapshot(file, sessionFold, folded);
  const { state, capabilities } = folded.state;
  return {
    state,
    capabilities,
    unreported: folded.unreported,
    damaged: folded.damaged,
    offsets: folded.offsets,
    eventsParsed: folded.eventsParsed,
    logSize: folded.logSize,
  };
}

/**
 * What a log may leave open when its session was not closed (a restart, a fork of a running
 * session) is closed honestly: the turn ended as interrupted, pending requests cancelled.
 */
export function settle(session: Session, state: SessionState, capabilities?: AgentCapabilities | null): void {
  if (state.currentTurnId) {
    session.record({ kind: 'turn.ended', turnId: state.currentTurnId, stopReason: 'interrupted', error: 'The app stopped while this turn was running.' });
  }
  for (const pending of state.permissions)
    session.record({ kind: 'permission.resolved', requestId: pending.requestId, optionId: null, reason: 'app restarted' });
  for (const pending of state.elicitations) session.record({ kind: 'elicitation.resolved', requestId: pending.requestId, action: 'cancel' });
  // An agent that can neither resume nor load cannot continue this conversation: say so now,
  // before the person types, instead of failing their next message.
  if (state.acpSessionId && !state.readonlyReason && capabilities && !canReconnect(capabilities)) {
    session.record({ kind: 'session.readonly', reason: readonlyReason(state.agentName) });
  }
}
