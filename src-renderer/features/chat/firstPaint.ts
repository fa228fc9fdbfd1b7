import { MAX_FIRST_PAINT_CHARS } from '../../../src-shared/ipc/limits';
import { bridge } from '../../bridge';
import { useStore } from '../../store';
import { BOTTOM_SLACK } from './rowRange';

/**
 * The first paint (issue 23): the browser host serves index.html with the rows this page last
 * showed at the bottom of the active session (`src-main/store/firstPaintFile.ts`), in a box the
 * size of the transcript that ignores the pointer (`inert`) and is hidden from assistive
 * technology (the app's own transcript follows). The person reads the newest entries at the
 * first paint, before the app's script has run; the app removes the box once its own transcript
 * has rows, or once it is clear that it will show something else.
 */
const BOX_ID = 'first-paint';

/** The session the served first paint shows, or null when there is none (left). */
export function firstPaintSession(): string | null {
  return document.getElementById(BOX_ID)?.dataset.sessionId ?? null;
}

/** Removes the served first paint: the app's own view is up. */
export function dismissFirstPaint(): void {
  document.getElementById(BOX_ID)?.remove();
}

/** Removes the first paint once the page shows another session, none, or another page. */
export function dismissFirstPaintWhenOtherShown(): () => void {
  const check = () => {
    const shown = firstPaintSession();
    if (shown === null) return true;
    const { app, view } = useStore.getState();
    // Another tab, or History or Settings in place of the session.
    if ((app && app.tabs.active !== shown) || view !== 'session') {
      dismissFirstPaint();
      return true;
    }
    return false;
  };
  if (check()) return () => {};
  const off = useStore.subscribe(() => {
    if (check()) off();
  });
  return off;
}

/** What was sent from this page (session, seq, size): each once, so a settled view costs one read. */
const sent = new Set<string>();
let frame = 0;

/**
 * Once the transcript has drawn a frame at its bottom, sends the rows in view as the session's
 * first paint (two frames on, after the paint: rows that came in are measured and in place).
 * Read soon, not after a quiet period: a view is often left right after it settled (a tab
 * switch, History), and a view that is gone cannot be read. Main saves it only while the session
 * is still at `seq`.
 */
export function scheduleFirstPaint(sessionId: string, scroller: HTMLElement, seq: number): void {
  cancelAnimationFrame(frame);
  frame = requestAnimationFrame(() => {
    frame = requestAnimationFrame(() => setTimeout(() => sendFirstPaint(sessionId, scroller, seq)));
  });
}

function sendFirstPaint(sessionId: string, scroller: HTMLElement, seq: number): void {
  if (!scroller.isConnected) return;
  const { app, sessions } = useStore.getState();
  // Only the browser host serves a first paint; the desktop app reads index.html from disk.
  if (app?.host !== 'browser') return;
  const session = sessions[sessionId];
  // A turn in progress or a question waiting is not what the next load should show as settled.
  if (!session || session.lastSeq !== seq || session.status === 'running' || session.status === 'waiting') return;
  if (scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight > BOTTOM_SLACK) return;
  const box = scroller.getBoundingClientRect();
  const key = `${sessionId}:${seq}:${Math.round(box.width)}x${Math.round(box.height)}`;
  if (sent.has(key)) return;
  const rows = [...scroller.querySelectorAll<HTMLElement>('.transcript-inner > .row')].filter((row) => {
    const rect = row.getBoundingClientRect();
    return rect.bottom > box.top && rect.top < box.bottom;
  });
  if (rows.length === 0 || rows.some((row) => row.classList.contains('row-loading'))) return;
  const html = rows.map((row) => row.outerHTML).join('');
  if (html.length > MAX_FIRST_PAINT_CHARS) return;
  const insets = {
    left: Math.max(0, Math.round(box.left)),
    top: Math.max(0, Math.round(box.top)),
    right: Math.max(0, Math.round(window.innerWidth - box.right)),
    bottom: Math.max(0, Math.round(window.innerHeight - box.bottom)),
  };
  const theme = document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';
  sent.add(key);
  bridge.request('session.firstPaint', { sessionId, seq, html, insets, theme }).then(
    ({ saved }) => {
      if (!saved) sent.delete(key);
    },
    () => sent.delete(key),
  );
}
