import type { RawObject } from '../../src-shared/session/events';
import { reduceSession } from '../../src-shared/session/reducer';
import type { SessionState } from '../../src-shared/session/state';
import { type LineRange, readEventLog } from '../store/eventLog';
import type { Session } from './session';
import { canReconnect, readonlyReason } from './sessionConnect';

/**
 * Folds a session's log: its state, what its agent said it could do when it last connected
 * (for a read-only restore), where its damaged lines are and how many no earlier run reported. Null for no session.
 */
export async function foldLog(
  file: string,
): Promise<{ state: SessionState; capabilities: RawObject | null | undefined; unreported: number; damaged: LineRange[] } | null> {
  let state: SessionState | undefined;
  let capabilities: RawObject | null | undefined;
  const result = await readEventLog(file, (batch) => {
    state = reduceSession(state, batch);
    for (const event of batch) if (event.kind === 'session.connected') capabilities = event.capabilities;
  });
  if (!state || !state.agentId) return null;
  return { state, capabilities, unreported: result.unreported, damaged: result.damaged };
}

/**
 * What a log may leave open when its session was not closed (a restart, a fork of a running
 * session) is closed honestly: the turn ended as interrupted, pending requests cancelled.
 */
export function settle(session: Session, state: SessionState, capabilities?: RawObject | null): void {
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
