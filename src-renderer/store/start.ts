import { bridge } from '../bridge';
import { createFrameQueue } from './frameQueue';
import { loadTabs, notBack } from './openTabs';
import { sessionFetchers } from './sessionFetchers';
import { createSessionSync } from './sessionSync';
import { appliedEvents, useStore } from './store';
import { publishTerminalOutput } from './terminalBus';
import { takeCachedAppState } from './cachedAppState';

/** Session states follow main's logs (see sessionSync.ts); created once per window by `startStore`. */
export const sessionSync = createSessionSync({
  store: useStore,
  ...sessionFetchers((name, input) => bridge.request(name, input)),
  applied: appliedEvents,
  onError: (error) => useStore.getState().showToast(error.message),
});

let started = false;
/** Subscribes the store to main's events and loads the initial state. */
export function startStore(): void {
  if (started) return;
  started = true;
  // Until main answers (its core may still be loading): the agent list and tabs as last seen.
  const cached = takeCachedAppState();
  if (cached && !useStore.getState().app) useStore.setState({ app: cached });
  // Terminal output goes to xterm straight from the applied events; a whole log read at load
  // is already in the state a terminal view writes when it mounts.
  appliedEvents.subscribe((sessionId, events, how) => {
    if (how !== 'load') publishTerminalOutput(sessionId, events);
  });
  bridge.on('app.state', (app) => {
    useStore.setState({ app });
    void loadTabs(
      app.tabs,
      (id) => sessionSync.load(id),
      (id) => Boolean(useStore.getState().sessions[id]) || notBack(app, id),
    );
  });
  const frameQueue = createFrameQueue(sessionSync.apply);
  bridge.on('session.events', ({ sessionId, events }) => frameQueue.push(sessionId, events));
  bridge.on('registry.catalog', (catalog) => useStore.setState({ catalog }));
  bridge.on('install.progress', (progress) => useStore.setState((s) => ({ installProgress: { ...s.installProgress, [progress.agentId]: progress } })));
  bridge.onConnection((connection) => {
    useStore.setState({ connection });
    if (connection !== 'open') return;
    // (Re)connected: refresh the app state and catch every loaded session up from its log.
    void bridge.request('app.state', {}).then((app) => {
      useStore.setState({ app });
      const sessions = useStore.getState().sessions;
      void loadTabs(
        app.tabs,
        (id) => sessionSync.load(id, sessions[id]?.lastSeq ?? 0),
        (id) => notBack(app, id),
      );
    });
  });
}
