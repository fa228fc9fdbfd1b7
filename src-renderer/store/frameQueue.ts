import type { SessionEvent } from '../../src-shared/session/events';

/**
 * Holds the event batches main pushes until the next frame and hands each session's run to
 * `apply` at once: while the page is busy (a long render), the batches that queued up meanwhile
 * become one store update and one render, not one each. The work then shrinks as the page falls
 * behind instead of piling up. Order within a session is kept; sessions are independent.
 */
export function createFrameQueue(
  apply: (sessionId: string, events: SessionEvent[]) => void,
  schedule: (flush: () => void, pace: () => number) => void = nextFrame,
) {
  const waiting = new Map<string, SessionEvent[]>();
  let scheduled = false;
  // Anything but streamed content (a turn's end, a permission request, a notice) is what the
  // person waits for: it goes at the next frame, not at the stream's pace.
  let urgent = false;
  let streamedChars = 0;
  let flooding = false;
  const flush = () => {
    scheduled = false;
    urgent = false;
    flooding = streamedChars >= FLOOD_CHARS;
    streamedChars = 0;
    const runs = [...waiting];
    waiting.clear();
    for (const [sessionId, events] of runs) apply(sessionId, events);
  };
  const pace = () => (urgent ? 0 : flooding ? FLOOD_INTERVAL_MS : STREAM_INTERVAL_MS);
  return {
    push(sessionId: string, events: readonly SessionEvent[]): void {
      const run = waiting.get(sessionId);
      if (run) for (const event of events) run.push(event);
      else waiting.set(sessionId, [...events]);
      for (const event of events) {
        if (event.kind === 'message.chunk') streamedChars += event.content.type === 'text' ? event.content.text.length : 0;
        else if (!STREAMED.has(event.kind)) urgent = true;
      }
      if (!scheduled) {
        scheduled = true;
        schedule(flush, pace);
      }
    },
  };
}

/** What an agent streams as it works: applied at the stream's pace; anything else within a frame. */
const STREAMED = new Set<SessionEvent['kind']>([
  'tool.updated',
  'tool.contentAppended',
  'plan.replaced',
  'commands.updated',
  'session.info',
  'usage.updated',
  'update.unknown',
]);

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
/**
 * A stream that brought this much text in one application is a flood (a log or a file dumped at
 * the speed of the pipe: 160 KB a second and more, where a model writes a few hundred characters
 * a second): nobody reads it as it flies by, so it is shown every 100 ms, half the applications,
 * each showing twice the text. Issue 11: page CPU for 20,000 chunks ~580 → ~485 ms (cold, A/B).
 */
const FLOOD_CHARS = 8_000;
const FLOOD_INTERVAL_MS = 100;
let lastFlush = -Infinity;

/**
 * The next animation frame at least `pace()` ms after the last application (0: the next frame), or
 * a timer when frames are not coming (a hidden window).
 */
function nextFrame(flush: () => void, pace: () => number): void {
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
    if (now - lastFlush < pace()) frame = requestAnimationFrame(onFrame);
    else once();
  };
  frame = requestAnimationFrame(onFrame);
  const timer = setTimeout(once, Math.max(STREAM_INTERVAL_MS, lastFlush + pace() - performance.now()));
}
