import type { Handlers } from '../../src-shared/ipc/contract';
import type { SessionManager } from '../sessions/sessionManager';
import { savePaint } from '../store/firstPaintFile';

/**
 * The page's first paint of a session (issue 23; `store/firstPaintFile.ts`): saved only for an
 * open session whose fold is still at the `seq` the page rendered, and only if its log ends there.
 */
export function firstPaintHandlers(sessions: Pick<SessionManager, 'current' | 'logFile'>): Pick<Handlers, 'session.firstPaint'> {
  return {
    'session.firstPaint': async ({ sessionId, seq, html, insets, theme }) => {
      if (sessions.current(sessionId).lastSeq !== seq) return { saved: false };
      const { saved } = await savePaint(sessions.logFile(sessionId), { seq, html, insets, theme });
      return { saved };
    },
  };
}
