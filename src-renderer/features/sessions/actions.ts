import { bridge } from '../../bridge';
import { run, useStore } from '../../store';

/** Tab commands shared by the keyboard shortcuts, the tab strip and `ui.command`. */
export function activateTab(sessionId: string): void {
  const app = useStore.getState().app;
  if (!app) return;
  const { tabs } = app;
  useStore.getState().setView('session');
  // Shown at once, not when main's echo arrives: on a busy machine that took long enough for
  // the first keystrokes after a click to land in the previous tab's composer.
  useStore.setState({ app: { ...app, tabs: { ...tabs, active: sessionId } } });
  void run(bridge.request('tabs.set', { open: tabs.open, active: sessionId })).then((answer) => {
    const now = useStore.getState().app;
    // Main refused: show its tabs again (its own state was never changed).
    if (answer === undefined && now?.tabs.active === sessionId) useStore.setState({ app: { ...now, tabs: { ...now.tabs, active: tabs.active } } });
  });
}

export function cycleTab(delta: number): void {
  const tabs = useStore.getState().app?.tabs;
  if (!tabs || tabs.open.length === 0) return;
  const index = tabs.open.indexOf(tabs.active ?? '');
  const next = (index + delta + tabs.open.length) % tabs.open.length;
  activateTab(tabs.open[next]);
}

export function closeTab(sessionId: string): void {
  void run(bridge.request('session.close', { sessionId }));
}

export function closeActiveTab(): void {
  const active = useStore.getState().app?.tabs.active;
  if (active) closeTab(active);
}

export function moveTab(sessionId: string, to: number): void {
  const tabs = useStore.getState().app?.tabs;
  if (!tabs) return;
  const open = [...tabs.open];
  const from = open.indexOf(sessionId);
  if (from < 0 || to < 0 || to >= open.length || from === to) return;
  open.splice(to, 0, ...open.splice(from, 1));
  // Show the new order at once; main's app.state confirms it.
  const app = useStore.getState().app;
  if (app) useStore.setState({ app: { ...app, tabs: { open, active: tabs.active } } });
  void run(bridge.request('tabs.set', { open, active: tabs.active }));
}

/** Shows a session: its tab when open, else opens it (from history, a notification, a search hit). */
export function showSession(sessionId: string): void {
  useStore.getState().setView('session');
  const tabs = useStore.getState().app?.tabs;
  if (tabs?.open.includes(sessionId)) void run(bridge.request('tabs.set', { open: tabs.open, active: sessionId }));
  else void run(bridge.request('session.open', { sessionId }));
}

export const listFolder = (path?: string) => run(bridge.request('fs.list', { path: path || undefined }));
export const newSession = (agentId: string, cwd: string) => run(bridge.request('session.new', { agentId, cwd }));
