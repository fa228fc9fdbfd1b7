import type { SessionEvent } from '../../src-shared/session/events';

/**
 * Holds the event batches main pushes until the next frame and hands each session's run to
 * `apply` at once: while the page is busy (a long render), the batches that queued up meanwhile
 * become one store update and one render, not one each. The work then shrinks as the page falls
 * behind instead of piling up. Order within a session is kept; sessions are independent.
 */
export function createFrameQueue(apply: (sessionId: string, events: SessionEvent[]) => void, schedule: (flush: () => void) => void = nextFrame) {
  const waiting = new Map<string, SessionEvent[]>();
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const runs = [...waiting];
    waiting.clear();
    for (const [sessionId, events] of runs) apply(sessionId, events);
  };
  return {
    push(sessionId: string, events: readonly SessionEvent[]): void {
      const run = waiting.get(sessionId);
      if (run) for (const event of events) run.push(event);
      else waiting.set(sessionId, [...events]);
      if (!scheduled) {
        scheduled = true;
        schedule(flush);
      }
    },
  };
}

/** The next animation frame, or 50 ms when frames are not coming (a hidden window). */
function nextFrame(flush: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    flush();
  };
  const frame = requestAnimationFrame(once);
  const timer = setTimeout(once, 50);
}
