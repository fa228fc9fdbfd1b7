/**
 * A click on the served shell (features/sessions/shellPaint.ts) before the app has taken its
 * place. The shell is a picture (`inert`): the click goes through it and would be lost, so where
 * it landed is kept here, from the early script on, and the app's first commit (which draws the
 * same thing in the same place) clicks what it drew there.
 */
let pending: { x: number; y: number } | null = null;

export function keepShellClicks(): void {
  // Imported without a page (the bridge's unit tests import the early entry).
  if (typeof document === 'undefined') return;
  const onClick = (event: MouseEvent) => {
    if (!document.getElementById('first-paint-shell')) {
      document.removeEventListener('click', onClick, true);
      return;
    }
    pending = { x: event.clientX, y: event.clientY };
  };
  document.addEventListener('click', onClick, true);
}

/** Where the last click on the shell landed (once), or null. */
export function takeShellClick(): { x: number; y: number } | null {
  const click = pending;
  pending = null;
  return click;
}
