import { continueInNewSession } from './actions';

/** "Start a new session from here": shown with a read-only transcript. */
export function ContinueNewButton({ sessionId }: { sessionId: string }) {
  return (
    <button type="button" className="primary" onClick={() => continueInNewSession(sessionId)}>
      Start a new session from here
    </button>
  );
}
