import { useAppStore } from '../../store/appStore';
import { Composer } from '../composer/Composer';
import { Transcript } from './Transcript';
import { SessionHeader } from './SessionHeader';

/** One session: header, transcript, composer. */
export function SessionView({ sessionId }: { sessionId: string }) {
  const loaded = useAppStore((s) => Boolean(s.sessions[sessionId]));
  return (
    <section id="session-panel" role="tabpanel" aria-labelledby={`tab-${sessionId}`} className="session">
      {loaded ? (
        <>
          <SessionHeader sessionId={sessionId} />
          <Transcript sessionId={sessionId} />
          <Composer sessionId={sessionId} />
        </>
      ) : (
        <p className="muted" role="status">
          Loading session…
        </p>
      )}
    </section>
  );
}
