import type { SessionEvent } from '../../src-shared/session/events';

/**
 * Holds the event batches main pushes until the next frame and hands each session's run to
 * `apply` at once: while the page is busy (a long render), the batches that queued up meanwhile
 * become one store update and one render, not one each. The work then shrinks as the page falls
 * behind instead of piling up. Order within a session is kept; sessions are independent.
 */
export function createFrameQueue(
  apply: (sessionId: string, events: SessionEvent[]) => void,
  schedule: (flush: () => void, urgent: () => boolean) => void = nextFrame,
) {
  const waiting = new Map<string, SessionEvent[]>();
  let scheduled = false;
  // Anything but streamed content (a turn's end, a permission request, a notice) is what the
  // person waits for: it goes at the next frame, not at the stream's pace.
  let urgent = false;
  const flush = () => {
    scheduled = false;
    urgent = false;
    const runs = [...waiting];
    waiting.clear();
    for (const [sessionId, events] of runs) apply(sessionId, events);
  };
  return {
    push(sessionId: string, events: readonly SessionEvent[]): void {
      const run = waiting.get(sessionId);
      if (run) for (const event of events) run.push(event);
      else waiting.set(sessionId, [...events]);
      if (!urgent) urgent = events.some((event) => event.kind !== 'acp.update');
      if (!scheduled) {
        scheduled = true;
        schedule(flush, () => urgent);
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
 * every frame to every 30 ms, and again to 50 ms). A lone update, and anything but streamed
 * content (see `urgent` in createFrameQueue), waits one frame.
 */
const STREAM_INTERVAL_MS = 50;
let lastFlush = -Infinity;

/** The next animation frame (see STREAM_INTERVAL_MS), or 50 ms when frames are not coming (a hidden window). */
function nextFrame(flush: () => void, urgent: () => boolean): void {
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
    if (now - lastFlush < STREAM_INTERVAL_MS && !urgent()) frame = requestAnimationFrame(onFrame);
    else once();
  };
  frame = requestAnimationFrame(onFrame);
  const timer = setTimeout(once, 50);
}
