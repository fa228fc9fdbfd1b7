import type { HistoryItem } from '../ipc/historyContract';

/** The key a history row is known by: the local id, else the agent's session id. */
export function historyKey(item: Pick<HistoryItem, 'sessionId' | 'agentId' | 'acpSessionId'>): string {
  return item.sessionId ?? `agent:${item.agentId}:${item.acpSessionId ?? ''}`;
}

/**
 * Merges local sessions with pages of agents' `session/list` answers by session id: an
 * agent's session that maps to a local one (same agent, same ACP session id) becomes one row
 * (`both`), keeping the local title when the person or the agent set one. Newest first.
 */
export function mergeHistory(local: readonly HistoryItem[], listed: readonly HistoryItem[]): HistoryItem[] {
  const rows = new Map<string, HistoryItem>();
  const byAcp = new Map<string, string>();
  for (const item of local) {
    rows.set(historyKey(item), item);
    if (item.acpSessionId) byAcp.set(`${item.agentId}\u0000${item.acpSessionId}`, historyKey(item));
  }
  for (const item of listed) {
    const localKey = item.sessionId ?? (item.acpSessionId ? byAcp.get(`${item.agentId}\u0000${item.acpSessionId}`) : undefined);
    const existing = localKey ? rows.get(localKey) : undefined;
    if (existing) {
      rows.set(localKey!, {
        ...existing,
        origin: existing.origin === 'agent' ? 'agent' : 'both',
        title: existing.title ?? item.title,
        lastActivity: Math.max(existing.lastActivity, item.lastActivity),
      });
    } else {
      rows.set(historyKey(item), item);
    }
  }
  return [...rows.values()].sort((a, b) => b.lastActivity - a.lastActivity);
}
