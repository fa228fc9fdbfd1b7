import { useRef, useState } from 'react';
import { EMPTY, NO_TABS, useStore } from '../../store';
import { StatusDot, statusLabel } from '../../ui/StatusDot';
import { Icon } from '../../ui/Icon';
import { WorktreeBadge } from '../worktrees';
import { activateTab, closeTab, moveTab } from './actions';

/**
 * Open sessions as tabs (WAI-ARIA tabs pattern): arrow keys move between tabs, Enter or
 * Space shows one, Alt+Arrow (or Ctrl+Shift+PageUp/PageDown) moves it, Delete closes it;
 * tabs can also be dragged. Each tab shows the session's state and a badge when a
 * background session waits for the person.
 */
export function TabStrip() {
  const tabs = useStore((s) => s.app?.tabs ?? NO_TABS);
  const summaries = useStore((s) => s.app?.sessions ?? EMPTY);
  const view = useStore((s) => s.view);
  const sidebarOpen = useStore((s) => s.sidebarOpen);
  const notBack = useStore((s) => s.app?.tabsNotBack ?? EMPTY);
  const byId = new Map(summaries.map((s) => [s.sessionId, s]));
  const placeholders = new Map(notBack.map((tab) => [tab.sessionId, tab]));
  const refs = useRef(new Map<string, HTMLButtonElement>());
  const [dragging, setDragging] = useState<string | null>(null);
  const [dropAt, setDropAt] = useState<number | null>(null);

  const focusTab = (index: number) => {
    const id = tabs.open[(index + tabs.open.length) % tabs.open.length];
    if (id) refs.current.get(id)?.focus();
  };

  return (
    <div className="tabstrip">
      <button
        type="button"
        className="icon-button"
        aria-label={sidebarOpen ? 'Hide sidebar' : 'Show sidebar'}
        aria-expanded={sidebarOpen}
        title={sidebarOpen ? 'Hide sidebar' : 'Show sidebar'}
        onClick={() => useStore.setState({ sidebarOpen: !sidebarOpen })}
      >
        <Icon name="sidebar" />
      </button>
      <div role="tablist" aria-label="Open sessions" className="tabs" onDragLeave={() => setDropAt(null)}>
        {tabs.open.map((sessionId, index) => {
          const summary = byId.get(sessionId);
          // A saved tab the host has not read back yet (or could not): in its place, named from what the host knew.
          const placeholder = summary ? undefined : placeholders.get(sessionId);
          const selected = sessionId === tabs.active && view === 'session';
          const title = summary?.title || summary?.agentName || placeholder?.title || placeholder?.agentName || 'Session';
          const attention = summary?.needsAttention ?? 0;
          const state = summary
            ? statusLabel(summary.status)
            : placeholder?.error
              ? `Could not be restored: ${placeholder.error}`
              : placeholder
                ? 'Restoring'
                : 'Loading';
          return (
            <div
              key={sessionId}
              role="presentation"
              className={`tab${selected ? ' selected' : ''}${dragging === sessionId ? ' dragging' : ''}${dropAt === index ? ' drop-before' : ''}${dropAt === index + 1 && index === tabs.open.length - 1 ? ' drop-after' : ''}`}
              draggable
              data-session-id={sessionId}
              onDragStart={(event) => {
                event.dataTransfer.setData('text/x-acp-tab', sessionId);
                event.dataTransfer.effectAllowed = 'move';
                setDragging(sessionId);
              }}
              onDragEnd={() => {
                setDragging(null);
                setDropAt(null);
              }}
              onDragOver={(event) => {
                if (!event.dataTransfer.types.includes('text/x-acp-tab')) return;
                event.preventDefault();
                const rect = event.currentTarget.getBoundingClientRect();
                setDropAt(event.clientX > rect.left + rect.width / 2 ? index + 1 : index);
              }}
              onDrop={(event) => {
                const id = event.dataTransfer.getData('text/x-acp-tab');
                event.preventDefault();
                const rect = event.currentTarget.getBoundingClientRect();
                let to = event.clientX > rect.left + rect.width / 2 ? index + 1 : index;
                const from = tabs.open.indexOf(id);
                if (from >= 0 && from < to) to -= 1;
                if (id) moveTab(id, to);
                setDragging(null);
                setDropAt(null);
              }}
              onAuxClick={(event) => {
                if (event.button === 1) closeTab(sessionId);
              }}
            >
              <button
                type="button"
                role="tab"
                ref={(element) => {
                  if (element) refs.current.set(sessionId, element);
                  else refs.current.delete(sessionId);
                }}
                id={`tab-${sessionId}`}
                aria-selected={selected}
                aria-controls={selected ? 'session-panel' : undefined}
                aria-describedby={`tab-state-${sessionId}`}
                aria-keyshortcuts="Delete Control+W"
                tabIndex={selected || (!tabs.open.includes(tabs.active ?? '') && index === 0) ? 0 : -1}
                title={`${title} — ${state}`}
                data-state={summary?.status ?? (placeholder?.error ? 'failed' : placeholder ? 'restoring' : 'starting')}
                aria-busy={placeholder && !placeholder.error ? true : undefined}
                onClick={() => activateTab(sessionId)}
                onKeyDown={(event) => {
                  const reorder = event.altKey || (event.ctrlKey && event.shiftKey);
                  if (reorder && (event.key === 'ArrowLeft' || event.key === 'PageUp')) {
                    event.preventDefault();
                    moveTab(sessionId, index - 1);
                    requestAnimationFrame(() => refs.current.get(sessionId)?.focus());
                  } else if (reorder && (event.key === 'ArrowRight' || event.key === 'PageDown')) {
                    event.preventDefault();
                    moveTab(sessionId, index + 1);
                    requestAnimationFrame(() => refs.current.get(sessionId)?.focus());
                  } else if (event.key === 'ArrowLeft') {
                    event.preventDefault();
                    focusTab(index - 1);
                  } else if (event.key === 'ArrowRight') {
                    event.preventDefault();
                    focusTab(index + 1);
                  } else if (event.key === 'Home') {
                    event.preventDefault();
                    focusTab(0);
                  } else if (event.key === 'End') {
                    event.preventDefault();
                    focusTab(tabs.open.length - 1);
                  } else if (event.key === 'Delete') {
                    event.preventDefault();
                    closeTab(sessionId);
                  }
                }}
              >
                {summary && <StatusDot status={summary.status} decorative />}
                {placeholder && <span className={`status-dot ${placeholder.error ? 'status-error' : 'status-restoring'}`} aria-hidden="true" />}
                <span className="tab-title">{title}</span>
                <WorktreeBadge sessionId={sessionId} compact />
                {attention > 0 && !selected && (
                  <span className="badge" aria-hidden="true">
                    {attention}
                  </span>
                )}
                <span id={`tab-state-${sessionId}`} className="visually-hidden" aria-hidden="true">
                  {state}
                  {attention > 0 ? `, ${attention} waiting for you` : ''}
                  {summary?.worktree ? `, on branch ${summary.worktree.branch} from ${summary.worktree.base}` : ''}
                </span>
              </button>
              {/* A mouse affordance only: keyboard users close a tab with Delete or Ctrl+W (a
                  button here would be a child of the tablist that is not a tab). */}
              <span className="tab-close" aria-hidden="true" title="Close (Ctrl+W)" onClick={() => closeTab(sessionId)}>
                <Icon name="close" />
              </span>
            </div>
          );
        })}
      </div>
      <button
        type="button"
        className="icon-button tab-new"
        aria-label="New session"
        title="New session (Ctrl+T)"
        onClick={() => useStore.getState().openNewSession(null)}
      >
        <Icon name="plus" />
      </button>
    </div>
  );
}
