import { useCallback, useEffect, useMemo, useState } from 'react';
import type { AgentSummary } from '../../../src-shared/ipc/appState';
import type { HistoryItem, SearchHit } from '../../../src-shared/ipc/historyContract';
import { historyKey, mergeHistory } from '../../../src-shared/history/merge';
import { EMPTY, run, useStore } from '../../store';
import { showSession } from '../sessions/actions';
import { deleteSession, exportSession, forkSession, listAgentSessions, listHistory, openAgentSession, renameSession, searchSessions } from './actions';
import './history.css';

type Capability = 'list' | 'delete' | 'fork';

/** Whether an agent advertised a session capability (unknown until it has run once). */
function supports(agent: AgentSummary | undefined, name: Capability): boolean | null {
  if (!agent?.capabilities) return null;
  return agent.capabilities.sessionCapabilities.includes(name);
}

interface AgentPages {
  items: HistoryItem[];
  nextCursor: string | null;
  loading: boolean;
  error: string | null;
}

/**
 * History: every session, local (from the history index) and listed by agents through
 * `session/list` (paginated, filtered by workspace), merged by ACP session id; open, rename,
 * delete, fork, export; and full-text search across all of them.
 */
export function HistoryView() {
  const agents = useStore((s) => s.app?.agents ?? EMPTY);
  const defaultCwd = useStore((s) => s.app?.defaultCwd ?? '');
  const [local, setLocal] = useState<HistoryItem[] | null>(null);
  const [workspace, setWorkspace] = useState('');
  const [pages, setPages] = useState<Record<string, AgentPages>>({});
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<SearchHit[] | null>(null);
  const [searching, setSearching] = useState(false);
  // Refetch when sessions come, go, get renamed or change tabs (not on every streamed batch).
  const changes = useStore(
    (s) =>
      `${(s.app?.sessions ?? []).map((x) => `${x.sessionId}\u0000${x.title ?? ''}\u0000${x.readonly}`).join('\u0001')}|${s.app?.tabs.open.join(',') ?? ''}`,
  );

  const refresh = useCallback(async () => {
    const result = await run(listHistory());
    if (result) setLocal(result.items);
  }, []);
  useEffect(() => {
    void refresh();
  }, [refresh, changes]);

  const workspaces = useMemo(() => {
    const all = new Set<string>(local?.map((item) => item.cwd) ?? []);
    if (defaultCwd) all.add(defaultCwd);
    return [...all].filter(Boolean).sort();
  }, [local, defaultCwd]);

  const loadAgent = useCallback(
    async (agentId: string, cursor?: string) => {
      setPages((p) => ({ ...p, [agentId]: { items: p[agentId]?.items ?? [], nextCursor: p[agentId]?.nextCursor ?? null, loading: true, error: null } }));
      try {
        const result = await listAgentSessions(agentId, workspace, cursor);
        setPages((p) => ({
          ...p,
          [agentId]: { items: [...(cursor ? (p[agentId]?.items ?? []) : []), ...result.items], nextCursor: result.nextCursor, loading: false, error: null },
        }));
      } catch (error) {
        setPages((p) => ({ ...p, [agentId]: { items: p[agentId]?.items ?? [], nextCursor: null, loading: false, error: (error as Error).message } }));
      }
    },
    [workspace],
  );

  // Agents known to list their sessions are asked on open and when the workspace changes.
  const listing = agents
    .filter((agent) => supports(agent, 'list') === true)
    .map((agent) => agent.id)
    .join('\n');
  useEffect(() => {
    setPages({});
    for (const agentId of listing ? listing.split('\n') : []) void loadAgent(agentId);
  }, [listing, loadAgent]);

  // Search as the person types (debounced).
  useEffect(() => {
    const text = query.trim();
    if (!text) {
      setHits(null);
      return;
    }
    setSearching(true);
    const timer = setTimeout(async () => {
      const result = await run(searchSessions(text));
      setHits(result?.hits ?? []);
      setSearching(false);
    }, 200);
    return () => clearTimeout(timer);
  }, [query]);

  const rows = useMemo(() => {
    const listed = Object.values(pages).flatMap((page) => page.items);
    const localRows = (local ?? []).filter((item) => !workspace || item.cwd === workspace);
    return mergeHistory(localRows, listed);
  }, [local, pages, workspace]);

  const unknownAgents = agents.filter((agent) => agent.runnable && supports(agent, 'list') === null);

  return (
    <section className="history" aria-labelledby="history-heading">
      <header className="history-header">
        <h1 id="history-heading">History</h1>
        <input
          type="search"
          className="history-search"
          aria-label="Search all sessions"
          placeholder="Search all sessions…"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        <select aria-label="Workspace" value={workspace} onChange={(event) => setWorkspace(event.target.value)}>
          <option value="">All workspaces</option>
          {workspaces.map((cwd) => (
            <option key={cwd} value={cwd}>
              {cwd}
            </option>
          ))}
        </select>
      </header>
      {hits !== null ? (
        <SearchResults hits={hits} searching={searching} query={query} />
      ) : (
        <>
          {Object.entries(pages).map(([agentId, page]) =>
            page.error ? (
              <p key={agentId} className="error small" role="alert">
                {agents.find((a) => a.id === agentId)?.name ?? agentId}: {page.error}
              </p>
            ) : null,
          )}
          {local === null ? (
            <p className="muted" role="status">
              Loading history…
            </p>
          ) : rows.length === 0 ? (
            <p className="muted">No sessions{workspace ? ' in this workspace' : ''} yet.</p>
          ) : (
            <ul className="history-list" aria-label="Sessions">
              {rows.map((item) => (
                <HistoryRow key={historyKey(item)} item={item} agent={agents.find((a) => a.id === item.agentId)} onChanged={refresh} />
              ))}
            </ul>
          )}
          <div className="history-more">
            {Object.entries(pages).map(([agentId, page]) =>
              page.nextCursor ? (
                <button key={agentId} type="button" disabled={page.loading} onClick={() => void loadAgent(agentId, page.nextCursor!)}>
                  More sessions from {agents.find((a) => a.id === agentId)?.name ?? agentId}
                </button>
              ) : null,
            )}
            {unknownAgents.map((agent) => (
              <button key={agent.id} type="button" onClick={() => void loadAgent(agent.id)} disabled={pages[agent.id]?.loading}>
                Ask {agent.name} for its sessions
              </button>
            ))}
          </div>
        </>
      )}
    </section>
  );
}

function formatTime(ms: number): string {
  if (!ms) return 'unknown time';
  const date = new Date(ms);
  const sameDay = date.toDateString() === new Date().toDateString();
  return sameDay
    ? date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
    : date.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

function HistoryRow({ item, agent, onChanged }: { item: HistoryItem; agent: AgentSummary | undefined; onChanged: () => Promise<void> }) {
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(item.title ?? '');
  const [confirming, setConfirming] = useState(false);
  const [alsoOnAgent, setAlsoOnAgent] = useState(false);
  const [busy, setBusy] = useState(false);
  const label = item.title || item.preview || 'Untitled session';
  const canFork = supports(agent, 'fork') === true && Boolean(item.acpSessionId);
  const canDeleteOnAgent = supports(agent, 'delete') === true && Boolean(item.acpSessionId);

  const act = async (work: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await run(work());
      await onChanged();
    } finally {
      setBusy(false);
    }
  };

  const open = () => (item.sessionId ? showSession(item.sessionId) : void act(() => openAgentSession(item)));

  const exportAs = (format: 'markdown' | 'jsonl') => void act(() => exportSession(item.sessionId!, format));

  return (
    <li className="history-row" aria-label={label}>
      <div className="history-main">
        {renaming && item.sessionId ? (
          <form
            className="history-rename"
            onSubmit={(event) => {
              event.preventDefault();
              if (!title.trim()) return;
              setRenaming(false);
              void act(() => renameSession(item.sessionId!, title.trim()));
            }}
          >
            <input
              aria-label="New title"
              value={title}
              autoFocus
              onChange={(event) => setTitle(event.target.value)}
              onKeyDown={(event) => event.key === 'Escape' && setRenaming(false)}
            />
            <button type="submit" className="primary">
              Save
            </button>
          </form>
        ) : (
          <button type="button" className="history-title" onClick={open} disabled={busy}>
            {label}
          </button>
        )}
        <span className="muted small history-meta">
          {item.agentName} · <span title={item.cwd}>{item.cwd}</span> · {formatTime(item.lastActivity)}
          {item.messageCount !== null ? ` · ${item.messageCount} message${item.messageCount === 1 ? '' : 's'}` : ''}
        </span>
        <span className="history-badges">
          {item.origin !== 'local' && <span className="history-badge">{item.origin === 'agent' ? 'on agent only' : 'on agent'}</span>}
          {item.open && <span className="history-badge">open</span>}
          {item.readonly && <span className="history-badge">read-only</span>}
          {item.forkedFrom && <span className="history-badge">fork</span>}
        </span>
      </div>
      {confirming ? (
        <div className="history-actions" role="group" aria-label="Confirm delete">
          <span>Delete “{label}”?</span>
          {item.sessionId && canDeleteOnAgent && (
            <label className="small">
              <input type="checkbox" checked={alsoOnAgent} onChange={(event) => setAlsoOnAgent(event.target.checked)} /> also on {item.agentName}
            </label>
          )}
          <button
            type="button"
            className="danger"
            onClick={() => {
              setConfirming(false);
              void act(() => deleteSession(item, alsoOnAgent));
            }}
          >
            Delete
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      ) : (
        <div className="history-actions" role="group" aria-label={`Actions for ${label}`}>
          <button type="button" onClick={open} disabled={busy}>
            Open
          </button>
          {item.sessionId && (
            <button type="button" onClick={() => setRenaming(true)} disabled={busy}>
              Rename
            </button>
          )}
          {canFork && (
            <button type="button" disabled={busy} onClick={() => void act(() => forkSession(item))}>
              Fork
            </button>
          )}
          {item.sessionId && (
            <>
              <button type="button" onClick={() => exportAs('markdown')} disabled={busy}>
                Export Markdown
              </button>
              <button type="button" onClick={() => exportAs('jsonl')} disabled={busy}>
                Export log
              </button>
            </>
          )}
          {(item.sessionId || canDeleteOnAgent) && (
            <button type="button" className="danger" onClick={() => setConfirming(true)} disabled={busy}>
              Delete
            </button>
          )}
        </div>
      )}
    </li>
  );
}

/** Splits a snippet around the query's words so they can be marked. */
function highlight(snippet: string, query: string) {
  const words = query
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (!words.length) return snippet;
  const pattern = new RegExp(`(${words.join('|')})`, 'gi');
  return snippet.split(pattern).map((part, i) => (i % 2 === 1 ? <mark key={i}>{part}</mark> : part));
}

function SearchResults({ hits, searching, query }: { hits: SearchHit[]; searching: boolean; query: string }) {
  if (hits.length === 0) return <p className="muted">{searching ? 'Searching…' : 'Nothing found.'}</p>;
  return (
    <ul className="history-list" aria-label="Search results">
      {hits.map((hit) => (
        <li key={hit.entryId} className="history-row">
          <button
            type="button"
            className="search-hit"
            onClick={() => {
              useStore.getState().setFocusEntry({ sessionId: hit.sessionId, entryId: hit.entryId });
              showSession(hit.sessionId);
            }}
          >
            <span className="history-title-text">{hit.title || hit.preview || 'Untitled session'}</span>
            <span className="muted small">
              {hit.agentName} · {hit.cwd} · {formatTime(hit.lastActivity)} · {hit.entryKind === 'user' ? 'you' : hit.entryKind}
            </span>
            <span className="search-snippet">{highlight(hit.snippet, query)}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
