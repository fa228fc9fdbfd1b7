import type { Handlers } from '../../src-shared/ipc/contract';
import type { historyRequests } from '../../src-shared/ipc/historyContract';
import type { HistoryService } from './historyService';

/** The history rows of the handler table: history, search, export, drafts. */
export function historyHandlers(history: HistoryService): Pick<Handlers, keyof typeof historyRequests> {
  return {
    'history.list': async ({ cwd }) => ({ items: await history.list(cwd) }),
    'history.agentSessions': async ({ agentId, cwd, cursor }) => history.agentSessions(agentId, cwd, cursor),
    'history.openAgentSession': async ({ agentId, acpSessionId, cwd, title }) => ({
      sessionId: await history.openAgentSession(agentId, acpSessionId, cwd, title),
    }),
    'history.rename': async ({ sessionId, title }) => {
      await history.rename(sessionId, title);
      return { ok: true };
    },
    'history.delete': async (input) => ({ ok: true, ...(await history.delete(input)) }),
    'history.fork': async (input) => ({ sessionId: await history.fork(input) }),
    'search.query': async ({ text, limit }) => ({ hits: await history.query(text, limit) }),
    'session.export': async ({ sessionId, format }) => history.export(sessionId, format),
    'session.continueNew': async ({ sessionId }) => ({ sessionId: await history.continueNew(sessionId) }),
    'draft.get': async ({ sessionId }) => ({ text: history.drafts.get(sessionId) }),
    'draft.set': async ({ sessionId, text }) => {
      history.drafts.set(sessionId, text);
      return { ok: true };
    },
  };
}
