import { bridge } from '../../bridge';
import { run } from '../../store/appStore';

/** "Start a new session from here": shown with a read-only transcript (issue 6). */
export function ContinueNewButton({ sessionId }: { sessionId: string }) {
  return (
    <button type="button" className="primary" onClick={() => void run(bridge.request('session.continueNew', { sessionId }))}>
      Start a new session from here
    </button>
  );
}
