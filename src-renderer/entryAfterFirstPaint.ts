/**
 * With a first paint in the page (features/chat/firstPaint.ts), the browser host names the app's
 * entry (index.js) as a module preload instead of a script: fetched as before, but run here after
 * the first frame. A module script runs as soon as it has arrived and the page is parsed, and the
 * browser does not paint before it has run: the rows sent with the page waited a few hundred
 * milliseconds for React DOM (issue 23, round 6).
 */
export function runEntryAfterFirstPaint(): void {
  // Imported without a page (the bridge's unit tests import the early entry): nothing to run.
  if (typeof document === 'undefined') return;
  const start = () => {
    const entry = document.querySelector<HTMLLinkElement>('link[data-after-first-paint]');
    if (!entry) return;
    // The frame's callback runs before its paint; the task it queues, after.
    requestAnimationFrame(() => setTimeout(() => void import(/* @vite-ignore */ entry.href)));
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
  else start();
}
