import type { Handlers } from '../../src-shared/ipc/contract';
import { indexOfEntry, pickOf, rangeOf, windowOf } from '../../src-shared/session/window';
import type { SessionManager } from '../sessions/sessionManager';

/**
 * Paging an open session to the page (issue 23): the newest window of its folded state, then
 * older ranges as the person scrolls or jumps, both from the state main already holds (its
 * snapshot plus the log's tail), so opening a session never reads its whole log.
 */
export function windowHandlers(
  sessions: Pick<SessionManager, 'current'>,
  settled: (sessionId: string) => Promise<void> = async () => {},
): Pick<Handlers, 'session.window' | 'session.entries' | 'session.pick' | 'session.locate'> {
  return {
    // A saved tab may be asked for before it is read back (the page's early script asks as soon
    // as the first answer lists it): answered once it is back, or with why it could not be.
    'session.window': async ({ sessionId, size }) => {
      await settled(sessionId);
      return windowOf(sessions.current(sessionId), size);
    },
    'session.entries': async ({ sessionId, from, to }) => rangeOf(sessions.current(sessionId), from, to),
    'session.pick': async ({ sessionId, pick }) => pickOf(sessions.current(sessionId), pick),
    'session.locate': async ({ sessionId, entryId }) => ({ index: indexOfEntry(sessions.current(sessionId), entryId) }),
  };
}
