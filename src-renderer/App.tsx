import { lazy, Suspense, useEffect, useLayoutEffect } from 'react';
import { bridge } from './bridge';
import { applyTheme } from './ui/theme';
import { Sidebar } from './features/sessions/Sidebar';
import { TabStrip } from './features/sessions/TabStrip';
import { loadSettingsPreferences } from './features/settings/actions';
import { Notices } from './ui/Notices';
import { OrphanWorktrees } from './features/worktrees';
import { NARROW, useStore } from './store';
import { closeActiveTab, cycleTab, showSession } from './features/sessions/actions';
import { shellAtFirstCommit } from './features/sessions/shellPaint';
import { loadModule, useLoadedModule } from './ui/loadedModule';

// Loaded when first rendered, not before the first paint: the start bundle holds what shows the
// agent list, and the session view (Markdown, highlight.js, xterm), settings, history, the
// registry catalog and the inspector are chunks of their own (issue 23, cold start).
// Asked for when this module runs, and rendered without Suspense (ui/loadedModule.ts: React's
// reveal throttle held the first session view back by up to 300 ms).
const sessionViews = loadModule(() => import('./features/chat/SessionViews'), 'the session view');
const SettingsPage = lazy(() => import('./features/settings/SettingsPage').then((m) => ({ default: m.SettingsPage })));
const HistoryView = lazy(() => import('./features/history/HistoryView').then((m) => ({ default: m.HistoryView })));
const NewSessionDialog = lazy(() => import('./features/sessions/NewSessionDialog').then((m) => ({ default: m.NewSessionDialog })));
const RegistryCatalog = lazy(() => import('./features/registry/RegistryCatalog').then((m) => ({ default: m.RegistryCatalog })));
const InspectorHost = lazy(() => import('./features/inspector/InspectorDialog').then((m) => ({ default: m.InspectorHost })));

export function App() {
  const app = useStore((s) => s.app);
  const connection = useStore((s) => s.connection);
  const view = useStore((s) => s.view);
  const newSession = useStore((s) => s.newSession);
  const theme = useStore((s) => s.theme);
  const sidebarOpen = useStore((s) => s.sidebarOpen);
  const active = app?.tabs.active ?? null;
  const sessionViewsChunk = useLoadedModule(sessionViews);
  const SessionViews = sessionViewsChunk.loaded?.SessionViews;

  // On a narrow window the sidebar is an overlay: showing a session folds it away.
  useEffect(() => {
    if (window.matchMedia(NARROW).matches) useStore.setState({ sidebarOpen: false });
  }, [active, view]);

  useEffect(() => applyTheme(theme), [theme]);
  // The shell served with the page goes in the commit that draws the same (features/sessions/shellPaint.ts).
  useLayoutEffect(shellAtFirstCommit, []);

  useEffect(() => {
    void loadSettingsPreferences();
    const ui = useStore.getState;
    const off = bridge.on('ui.command', ({ command, sessionId, agentId }) => {
      switch (command) {
        case 'newSession':
          ui().openNewSession(agentId ?? null);
          break;
        case 'closeTab':
          closeActiveTab();
          break;
        case 'nextTab':
          cycleTab(1);
          break;
        case 'previousTab':
          cycleTab(-1);
          break;
        case 'settings':
          ui().setView('settings');
          break;
        case 'focusSession':
          if (sessionId) showSession(sessionId);
          break;
        case 'installAgent':
          // The registry catalog listens for this (features/registry); it owns that view.
          window.dispatchEvent(new CustomEvent('acp:install-agent', { detail: { agentId } }));
          break;
      }
    });
    const onKey = (event: KeyboardEvent) => {
      const mod = event.ctrlKey || event.metaKey;
      if (!mod || event.altKey) return;
      const key = event.key.toLowerCase();
      if (key === 't' && !event.shiftKey) {
        event.preventDefault();
        ui().openNewSession(null);
      } else if (key === 'w' && !event.shiftKey) {
        event.preventDefault();
        closeActiveTab();
      } else if (event.key === 'Tab' && event.ctrlKey) {
        event.preventDefault();
        cycleTab(event.shiftKey ? -1 : 1);
      } else if (key === ',') {
        event.preventDefault();
        ui().setView('settings');
      }
    };
    window.addEventListener('keydown', onKey);
    return () => {
      off();
      window.removeEventListener('keydown', onKey);
    };
  }, []);

  return (
    <div className={`app${sidebarOpen ? '' : ' sidebar-closed'}`}>
      {sidebarOpen && <Sidebar />}
      {sidebarOpen && <div className="sidebar-backdrop" aria-hidden="true" onClick={() => useStore.setState({ sidebarOpen: false })} />}
      <main className="main" aria-label="Workspace">
        {connection === 'unauthorized' ? (
          <div role="alert" className="banner banner-error">
            The app refused this page’s access token (the host was restarted with another one). Open the URL that `acp-desktop serve` printed.
          </div>
        ) : (
          connection !== 'open' && (
            <div role="status" className="banner banner-warning">
              {connection === 'connecting' ? 'Connecting to the app…' : 'Connection lost; reconnecting…'}
            </div>
          )
        )}
        <Notices />
        <OrphanWorktrees />
        <TabStrip />
        {SessionViews ? (
          <SessionViews shown={view === 'session' ? active : null} />
        ) : (
          active && view === 'session' && (sessionViewsChunk.failure ? <ChunkFailed what="the session view" why={sessionViewsChunk.failure} /> : <Loading />)
        )}
        {view === 'history' ? (
          <Suspense fallback={<Loading />}>
            <HistoryView />
          </Suspense>
        ) : view === 'settings' ? (
          <Suspense fallback={<Loading />}>
            <SettingsPage />
          </Suspense>
        ) : active ? null : app?.restoring ? (
          // The host answers before it has read the open tabs back: not an empty window meanwhile.
          <section className="empty" aria-labelledby="empty-heading">
            <h1 id="empty-heading">ACP Desktop</h1>
            <p className="muted loading" role="status">
              Restoring {app.restoring === 1 ? 'your open session' : `your ${app.restoring} open sessions`}…
            </p>
          </section>
        ) : (
          <section className="empty" aria-labelledby="empty-heading">
            <h1 id="empty-heading">ACP Desktop</h1>
            <p className="muted">Pick an agent on the left and start a session in a workspace folder.</p>
            <button type="button" className="primary" onClick={() => useStore.getState().openNewSession(null)}>
              New session
            </button>
            <p className="muted small">
              <kbd>Ctrl</kbd>+<kbd>T</kbd> new session · <kbd>Ctrl</kbd>+<kbd>W</kbd> close tab · <kbd>Ctrl</kbd>+<kbd>Tab</kbd> next tab
            </p>
          </section>
        )}
      </main>
      <Suspense>
        <RegistryCatalog onStartSession={(agentId) => useStore.getState().openNewSession(agentId)} />
        <InspectorHost />
        {newSession !== undefined && <NewSessionDialog agentId={newSession.agentId} onClose={() => useStore.getState().closeNewSession()} />}
      </Suspense>
    </div>
  );
}

function Loading() {
  return (
    <p className="muted loading" role="status">
      Loading…
    </p>
  );
}

/** A chunk the page could not load (the host stopped, a network error): say so, and offer the one way back. */
function ChunkFailed({ what, why }: { what: string; why: string }) {
  return (
    <div className="empty" role="alert">
      <p>
        Could not load {what}: {why}
      </p>
      <button type="button" className="primary" onClick={() => window.location.reload()}>
        Reload
      </button>
    </div>
  );
}
