import type { AppState } from '../../src-shared/ipc/appState';
import type { Handlers } from '../../src-shared/ipc/contract';
import type { SessionManager } from '../sessions/sessionManager';
import { savePaint } from '../store/firstPaintFile';
import { saveShellPaint } from '../store/shellPaint';

/**
 * The page's first paint of a session (issue 23; `store/firstPaintFile.ts`): saved only for an
 * open session whose fold is still at the `seq` the page rendered, and only if its log ends there.
 */
export function firstPaintHandlers(
  sessions: Pick<SessionManager, 'current' | 'logFile'>,
  dataDir: string,
  now: Pick<AppState, 'defaultCwd'>,
): Pick<Handlers, 'session.firstPaint' | 'app.shellPaint'> {
  return {
    'session.firstPaint': async ({ sessionId, seq, html, insets, theme }) => {
      if (sessions.current(sessionId).lastSeq !== seq) return { saved: false };
      const { saved } = await savePaint(sessions.logFile(sessionId), { seq, html, insets, theme });
      return { saved };
    },
    // The shell drawn from the cached app state: saved only while that state is the one served.
    'app.shellPaint': async ({ key, html, theme }) => ({ saved: (await saveShellPaint(dataDir, { key, html, theme }, now)).saved }),
  };
}
