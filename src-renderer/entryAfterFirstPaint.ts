/**
 * With a first paint in the page (features/chat/firstPaint.ts, features/sessions/shellPaint.ts),
 * the browser host names the app's entry (index.js) and the chunks' preloads for after the first
 * frame, and they are fetched and run here once that frame is on the screen. A module script runs
 * as soon as it has arrived and the page is parsed, and the browser does not paint before it has
 * run: the rows sent with the page waited a few hundred milliseconds for React DOM (issue 23,
 * round 6). And a preload is compiled as it arrives, on a thread of its own: on two cores that
 * took one from the first frame's layout and raster (round 7: a trace showed 96 ms of background
 * parsing beside the raster of that frame). `first` runs just before the entry (early.ts: the
 * socket, whose asking loads the host's core; round 8), or at once when the entry is not deferred.
 */
export function runEntryAfterFirstPaint(first?: () => void): void {
  // Imported without a page (the bridge's unit tests import the early entry): nothing to run.
  if (typeof document === 'undefined') return;
  const start = () => {
    const entry = document.querySelector<HTMLLinkElement>('link[data-after-first-paint]');
    if (!entry) return first?.();
    afterFirstPresented(() => {
      first?.();
      for (const link of document.querySelectorAll<HTMLLinkElement>('link[data-preload-after-first-paint]')) link.rel = link.dataset.preloadAfterFirstPaint!;
      void import(/* @vite-ignore */ entry.href);
    });
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
  else start();
}

/** The longest the app's start waits for the first frame to reach the screen (a page in the background paints nothing). */
const PRESENTED_AT_MOST_MS = 1000;

/**
 * Runs `then` once the page's first contentful frame is on the screen (its paint timing entry is
 * written at its presentation), or right away for a hidden page, or after a while in any case.
 */
function afterFirstPresented(then: () => void): void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    observer?.disconnect();
    clearTimeout(timer);
    then();
  };
  if (document.visibilityState === 'hidden' || typeof PerformanceObserver !== 'function') return run();
  const timer = setTimeout(run, PRESENTED_AT_MOST_MS);
  let observer: PerformanceObserver | null = null;
  try {
    observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length > 0) run();
    });
    observer.observe({ type: 'paint', buffered: true });
  } catch {
    run();
  }
}
