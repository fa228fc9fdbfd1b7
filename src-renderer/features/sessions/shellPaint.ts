import { MAX_FIRST_PAINT_CHARS } from '../../../src-shared/ipc/limits';
import { bridge } from '../../bridge';
import { useStore } from '../../store';
import { takenCachedAppState } from '../../store/cachedAppState';
import { takeShellClick } from '../../early';

/**
 * The app's shell at the first paint (issue 23, cold start; src-main/store/shellPaint.ts): the
 * browser host serves index.html with the sidebar and tab strip this page drew from the cached
 * app state, `inert` and hidden from assistive technology, so the agent list is on screen before
 * the app's script has run. The app's first commit draws the same state: it takes the shell's
 * place then.
 */
const SHELL_ID = 'first-paint-shell';

/**
 * A click the person made on the shell, made again on the control the app drew in its place
 * (the sidebar's and the tab strip's: the rest of the shell is the first paint's rows, which stay).
 */
function replayShellClick(): void {
  const click = takeShellClick();
  if (!click) return;
  const control = document.elementFromPoint(click.x, click.y)?.closest('button, [role="tab"], a[href]');
  if (!(control instanceof HTMLElement) || !control.closest('#root .sidebar, #root .tabstrip') || control.matches(':disabled')) return;
  // After this commit: a click handler's state update does not belong inside it.
  setTimeout(() => control.click());
}

/** Removes the served shell (the app did not take its place in time). */
export function dismissShellPaint(): void {
  document.getElementById(SHELL_ID)?.remove();
}

let committed = false;

/**
 * At the app's first commit: removes the served shell (the app now draws the same), or, when
 * none was served and this commit drew the cached state, sends what it drew as the next start's
 * shell. Read in the commit, before the host's answer can replace the cached state.
 */
export function shellAtFirstCommit(): void {
  if (committed) return;
  committed = true;
  const served = document.getElementById(SHELL_ID);
  if (served) {
    served.remove();
    replayShellClick();
    return;
  }
  const cached = takenCachedAppState();
  const app = document.querySelector('#root > .app');
  if (!cached?.key || !app || cached.state.host !== 'browser' || useStore.getState().app !== cached.state) return;
  const shell = app.cloneNode(true) as HTMLElement;
  // The sidebar and the tab strip: the rest of the workspace (a banner, "Loading…") is this
  // moment's, and the shown session's rows come with its own first paint.
  for (const child of [...(shell.querySelector(':scope > .main')?.children ?? [])]) if (!child.classList.contains('tabstrip')) child.remove();
  const html = shell.outerHTML;
  if (html.length > MAX_FIRST_PAINT_CHARS) return;
  const theme = document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';
  const key = cached.key;
  // After the first frame: the request is not what the page should spend its start on.
  requestAnimationFrame(() => setTimeout(() => void bridge.request('app.shellPaint', { key, html, theme }).catch(() => {})));
}
