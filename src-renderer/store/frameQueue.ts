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

/**
 * While batches keep coming (a stream), applied at most every 50 ms (20 times a second, the
 * pace streaming chat UIs throttle to): each application costs the page a fixed amount whatever
 * it carries (re-rendering the streaming message's last block and newest group, React's pass,
 * layout and paint), and on 2 cores that fixed cost competed with the host and the agent for
 * the same CPUs (issue 11: the page's CPU for 20,000 chunks fell by a tenth to a quarter from
 * every frame to every 30 ms, and again to 50 ms). A lone update waits one frame.
 */
const STREAM_INTERVAL_MS = 50;
let lastFlush = -Infinity;

/** The next animation frame (see STREAM_INTERVAL_MS), or 50 ms when frames are not coming (a hidden window). */
function nextFrame(flush: () => void): void {
  let done = false;
  let frame = 0;
  const once = () => {
    if (done) return;
    done = true;
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    lastFlush = performance.now();
    flush();
  };
  const onFrame = (now: number) => {
    if (now - lastFlush < STREAM_INTERVAL_MS) frame = requestAnimationFrame(onFrame);
    else once();
  };
  frame = requestAnimationFrame(onFrame);
  const timer = setTimeout(once, 50);
}
