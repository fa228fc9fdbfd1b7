import { useEffect } from 'react';
import { bridge } from '../../bridge';
import { run, useAppStore } from '../../store/appStore';
import { EMPTY, NO_TABS } from '../../store/empty';
import { StatusDot, statusLabel } from '../../ui/StatusDot';

/** Open sessions as tabs: state dot, a badge when a background tab needs you, reorder, close. */
export function TabStrip({ onNewSession }: { onNewSession: () => void }) {
  const tabs = useAppStore((s) => s.app?.tabs ?? NO_TABS);
  const summaries = useAppStore((s) => s.app?.sessions ?? EMPTY);
  const byId = new Map(summaries.map((s) => [s.sessionId, s]));

  const activate = (sessionId: string) => void run(bridge.request('tabs.set', { open: tabs.open, active: sessionId }));
  const close = (sessionId: string) => void run(bridge.request('session.close', { sessionId }));
  const move = (sessionId: string, delta: number) => {
    const open = [...tabs.open];
    const from = open.indexOf(sessionId);
    const to = from + delta;
    if (from < 0 || to < 0 || to >= open.length) return;
    open.splice(to, 0, ...open.splice(from, 1));
    void run(bridge.request('tabs.set', { open, active: tabs.active }));
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey && event.key === 'Tab' && tabs.open.length > 1) {
        event.preventDefault();
        const index = tabs.open.indexOf(tabs.active ?? '');
        const next = (index + (event.shiftKey ? -1 : 1) + tabs.open.length) % tabs.open.length;
        activate(tabs.open[next]);
      } else if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'w' && tabs.active) {
        event.preventDefault();
        close(tabs.active);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  return (
    <div className="tabstrip">
      <div role="tablist" aria-label="Open sessions" className="tabs">
        {tabs.open.map((sessionId) => {
          const summary = byId.get(sessionId);
          const selected = sessionId === tabs.active;
          const title = summary?.title ?? summary?.agentName ?? 'Session';
          const attention = summary?.needsAttention ?? 0;
          return (
            <div key={sessionId} className={`tab${selected ? ' selected' : ''}`}>
              <button
                type="button"
                role="tab"
                id={`tab-${sessionId}`}
                aria-selected={selected}
                aria-controls="session-panel"
                title={`${title} — ${summary ? statusLabel(summary.status) : ''}`}
                onClick={() => activate(sessionId)}
                onKeyDown={(event) => {
                  if (event.altKey && event.key === 'ArrowLeft') move(sessionId, -1);
                  if (event.altKey && event.key === 'ArrowRight') move(sessionId, 1);
                }}
              >
                {summary && <StatusDot status={summary.status} />}
                <span className="tab-title">{title}</span>
                {attention > 0 && !selected && (
                  <span className="badge" aria-label={`${attention} waiting for you`}>
                    {attention}
                  </span>
                )}
              </button>
              <button type="button" className="tab-close" aria-label={`Close ${title}`} onClick={() => close(sessionId)}>
                ×
              </button>
            </div>
          );
        })}
      </div>
      <button type="button" className="tab-new" aria-label="New session" title="New session (Ctrl+T)" onClick={onNewSession}>
        +
      </button>
    </div>
  );
}
