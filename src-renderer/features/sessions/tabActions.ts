import { bridge } from '../../bridge';
import { run, useAppStore } from '../../store/appStore';
import { useUiStore } from '../../store/uiStore';

/** Tab commands shared by the keyboard shortcuts, the tab strip and `ui.command`. */
export function activateTab(sessionId: string): void {
  const tabs = useAppStore.getState().app?.tabs;
  if (!tabs) return;
  useUiStore.getState().setView('session');
  void run(bridge.request('tabs.set', { open: tabs.open, active: sessionId }));
}

export function cycleTab(delta: number): void {
  const tabs = useAppStore.getState().app?.tabs;
  if (!tabs || tabs.open.length === 0) return;
  const index = tabs.open.indexOf(tabs.active ?? '');
  const next = (index + delta + tabs.open.length) % tabs.open.length;
  activateTab(tabs.open[next]);
}

export function closeTab(sessionId: string): void {
  void run(bridge.request('session.close', { sessionId }));
}

export function closeActiveTab(): void {
  const active = useAppStore.getState().app?.tabs.active;
  if (active) closeTab(active);
}

export function moveTab(sessionId: string, to: number): void {
  const tabs = useAppStore.getState().app?.tabs;
  if (!tabs) return;
  const open = [...tabs.open];
  const from = open.indexOf(sessionId);
  if (from < 0 || to < 0 || to >= open.length || from === to) return;
  open.splice(to, 0, ...open.splice(from, 1));
  // Show the new order at once; main's app.state confirms it.
  const app = useAppStore.getState().app;
  if (app) useAppStore.setState({ app: { ...app, tabs: { open, active: tabs.active } } });
  void run(bridge.request('tabs.set', { open, active: tabs.active }));
}
