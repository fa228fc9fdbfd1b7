import type { AppState } from '../../src-shared/ipc/appState';
import { logged } from '../log/mainLog';
import { saveAppStateCache } from '../store/appStateCache';
import type { AppEvents } from './appEvents';

/** Quiet time after the app state changed before it is saved (a restore changes it many times). */
const SAVE_AFTER_MS = 500;

/**
 * Keeps `app-state.json` (store/appStateCache.ts) at the app state the page last got, for the
 * next start's index.html. Written after the state has been quiet a moment, and at once when
 * the core stops.
 */
export function saveAppStateWhenChanged(events: AppEvents, dataDir: string): { flush(): Promise<void> } {
  let latest: AppState | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const save = async () => {
    clearTimeout(timer);
    const state = latest;
    latest = null;
    if (state) await saveAppStateCache(dataDir, state).catch(logged('Saving the app state for the next start', 'debug'));
  };
  events.on((name, payload) => {
    if (name !== 'app.state') return;
    latest = payload as AppState;
    clearTimeout(timer);
    timer = setTimeout(() => void save(), SAVE_AFTER_MS);
  });
  return { flush: save };
}
