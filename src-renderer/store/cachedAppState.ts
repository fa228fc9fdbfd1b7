import type { AppState } from '../../src-shared/ipc/appState';

/** The cached state this page was served and drew first, and the name main gave it (`data-key`). */
let taken: { state: AppState; key: string | null } | null = null;

/**
 * The app state the browser host put in index.html (src-main/store/appStateCache.ts): what the
 * page last had, minus anything running. Drawn at once (the agent list, sessions, tabs) and
 * replaced by main's own answer as soon as it comes; null when the page carries none.
 */
export function takeCachedAppState(): AppState | null {
  if (typeof document === 'undefined') return null;
  const element = document.getElementById('app-state-cache');
  if (!element) return null;
  element.remove();
  try {
    const state = JSON.parse(element.textContent ?? '') as Partial<AppState> | null;
    if (!(state && Array.isArray(state.agents) && Array.isArray(state.sessions) && state.tabs && Array.isArray(state.tabs.open))) return null;
    taken = { state: state as AppState, key: element.dataset.key ?? null };
    return taken.state;
  } catch {
    return null;
  }
}

/** The cached state taken at start and its name, or null: none was served. */
export function takenCachedAppState(): { state: AppState; key: string | null } | null {
  return taken;
}
