import { useEffect, useState } from 'react';
import { Sidebar } from './features/sessions/Sidebar';
import { TabStrip } from './features/sessions/TabStrip';
import { NewSessionDialog } from './features/sessions/NewSessionDialog';
import { SessionView } from './features/chat/SessionView';
import { Notices } from './ui/Notices';
import { RegistryCatalog } from './features/registry';
import { useAppStore } from './store/appStore';

export function App() {
  const app = useAppStore((s) => s.app);
  const connection = useAppStore((s) => s.connection);
  const [newSessionFor, setNewSessionFor] = useState<string | null | undefined>(undefined);
  const active = app?.tabs.active ?? null;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 't') {
        event.preventDefault();
        setNewSessionFor(null);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div className="app">
      <Sidebar onNewSession={(agentId) => setNewSessionFor(agentId)} />
      <main className="main">
        {connection !== 'open' && (
          <div role="status" className="banner banner-warning">
            {connection === 'connecting' ? 'Connecting to the app…' : 'Connection lost; reconnecting…'}
          </div>
        )}
        <Notices />
        <TabStrip onNewSession={() => setNewSessionFor(null)} />
        {active ? (
          <SessionView key={active} sessionId={active} />
        ) : (
          <section className="empty" aria-label="No session open">
            <h1>ACP Desktop</h1>
            <p>Pick an agent on the left and start a session in a workspace folder.</p>
            <button type="button" onClick={() => setNewSessionFor(null)}>
              New session
            </button>
          </section>
        )}
      </main>
      <RegistryCatalog onStartSession={(agentId) => setNewSessionFor(agentId)} />
      {newSessionFor !== undefined && <NewSessionDialog agentId={newSessionFor} onClose={() => setNewSessionFor(undefined)} />}
    </div>
  );
}
