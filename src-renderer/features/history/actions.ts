import type { HistoryItem } from '../../../src-shared/ipc/historyContract';
import { bridge } from '../../bridge';
import { run } from '../../store';
import { showSession } from '../sessions/actions';
import { downloadText } from './download';

/** The history feature's requests to main. They throw; the views decide how to show a failure. */

export const listHistory = () => bridge.request('history.list', {});

export const listAgentSessions = (agentId: string, cwd?: string, cursor?: string) =>
  bridge.request('history.agentSessions', { agentId, ...(cwd ? { cwd } : {}), ...(cursor ? { cursor } : {}) });

export const searchSessions = (text: string) => bridge.request('search.query', { text, limit: 100 });

/** Opens a session only the agent lists (creates a local one bound to it) and shows it. */
export async function openAgentSession(item: HistoryItem): Promise<void> {
  const result = await bridge.request('history.openAgentSession', {
    agentId: item.agentId,
    acpSessionId: item.acpSessionId!,
    cwd: item.cwd,
    title: item.title,
  });
  showSession(result.sessionId);
}

/** Downloads a session as Markdown or as its raw event log. */
export async function exportSession(sessionId: string, format: 'markdown' | 'jsonl'): Promise<void> {
  const file = await bridge.request('session.export', { sessionId, format });
  downloadText(file.filename, file.mimeType, file.text);
}

export const renameSession = (sessionId: string, title: string) => bridge.request('history.rename', { sessionId, title });

export const deleteSession = (item: HistoryItem, alsoOnAgent: boolean) =>
  bridge.request(
    'history.delete',
    item.sessionId ? { sessionId: item.sessionId, alsoOnAgent } : { agentId: item.agentId, acpSessionId: item.acpSessionId!, alsoOnAgent: true },
  );

/** Forks a session (local or only on the agent) and shows the fork. */
export async function forkSession(item: HistoryItem): Promise<void> {
  const result = await bridge.request(
    'history.fork',
    item.sessionId ? { sessionId: item.sessionId } : { agentId: item.agentId, acpSessionId: item.acpSessionId!, cwd: item.cwd },
  );
  showSession(result.sessionId);
}

/** "Start a new session from here" on a read-only transcript. */
export const continueInNewSession = (sessionId: string) => void run(bridge.request('session.continueNew', { sessionId }));

export const loadDraft = (sessionId: string) => bridge.request('draft.get', { sessionId });
export const saveDraft = (sessionId: string, text: string) => bridge.request('draft.set', { sessionId, text });
