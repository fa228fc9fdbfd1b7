import { useSessionUi, useStore } from '../../store';
import { AuthPanel } from '../auth/AuthPanel';
import { Composer } from '../composer/Composer';
import { ConfigBar } from '../config/ConfigBar';
import { SessionInfoDialog } from '../info/SessionInfoDialog';
import { SidePanel, usePanelTabs } from '../panel/SidePanel';
import { AttentionDock } from './AttentionDock';
import { SessionHeader } from './SessionHeader';
import { Transcript } from './Transcript';
import { useViewShown } from '../../ui/viewShown';
import { closeTab } from '../sessions/actions';

/** One session: header, transcript, what waits for the person, options, composer; the side panel. */
export function SessionView({ sessionId }: { sessionId: string }) {
  const loaded = useStore((s) => Boolean(s.sessions[sessionId]));
  const tabs = usePanelTabs(sessionId);
  const panelOpen = useSessionUi(sessionId, (ui) => ui.panelOpen);
  const showPanel = tabs.length > 0 && panelOpen !== false;
  return (
    <section id="session-panel" role="tabpanel" aria-labelledby={`tab-${sessionId}`} className="session">
      {loaded ? (
        <>
          <SessionHeader sessionId={sessionId} panelTabs={tabs.length} panelShown={showPanel} />
          <div className={`session-body${showPanel ? ' with-panel' : ''}`}>
            <div className="conversation">
              <Transcript sessionId={sessionId} />
              <AuthPanel sessionId={sessionId} />
              <AttentionDock sessionId={sessionId} />
              <ConfigBar sessionId={sessionId} />
              <Composer sessionId={sessionId} />
            </div>
            {showPanel && <SidePanel sessionId={sessionId} tabs={tabs} />}
          </div>
          <ShownInfoDialog sessionId={sessionId} />
        </>
      ) : (
        <NotLoaded sessionId={sessionId} />
      )}
    </section>
  );
}

/** A tab whose session the page does not have yet: the host may still be reading it back, or could not. */
function NotLoaded({ sessionId }: { sessionId: string }) {
  const placeholder = useStore((s) => s.app?.tabsNotBack?.find((tab) => tab.sessionId === sessionId));
  const name = placeholder?.title || placeholder?.agentName;
  if (placeholder?.error)
    return (
      <div className="empty" role="alert">
        <p>
          {name ? `“${name}”` : 'This session'} could not be restored. {placeholder.error}
        </p>
        <button type="button" onClick={() => closeTab(sessionId)}>
          Close tab
        </button>
      </div>
    );
  return (
    <p className="muted loading" role="status">
      {placeholder ? `Restoring ${name ? `“${name}”` : 'this session'}…` : 'Loading session…'}
    </p>
  );
}

/**
 * The info dialog is modal and opened from the store: only the view on screen shows it. Its own
 * component, so showing or hiding a kept view re-renders this and not the whole view.
 */
function ShownInfoDialog({ sessionId }: { sessionId: string }) {
  return useViewShown() ? <SessionInfoDialog sessionId={sessionId} /> : null;
}
