import { useEffect, useState } from 'react';
import { logRenderer } from '../log';

/** A chunk asked for with `import()` once, and what it exports once it is there. */
export interface LoadedModule<T> {
  promise: Promise<T>;
  /** The module, or undefined while it loads. */
  current(): T | undefined;
  /** Why it could not be loaded (undefined while it loads or once it is there). */
  failure(): string | undefined;
}

/** Starts loading a chunk now (not at first render): its fetch runs alongside the page's first requests. */
export function loadModule<T>(load: () => Promise<T>, what: string): LoadedModule<T> {
  let value: T | undefined;
  let failure: string | undefined;
  const promise = load().then((module) => (value = module));
  promise.catch((error: unknown) => {
    failure = error instanceof Error ? error.message : String(error);
    logRenderer('error', `Loading ${what}`, error);
  });
  return { promise, current: () => value, failure: () => failure };
}

/**
 * The module once loaded, else undefined (the caller renders nothing or a placeholder).
 *
 * Not `React.lazy` + `<Suspense>`: React holds back the reveal of a suspended boundary until
 * 300 ms after its last fallback was committed (FALLBACK_THROTTLE_MS), and the page's first
 * render commits that fallback — the session view, loaded 100–200 ms later, waited idle for the
 * rest of the 300 ms (issue 23, round 4: open). A state update when the chunk arrives renders
 * it at once.
 */
export function useLoadedModule<T>(module: LoadedModule<T>): { loaded?: T; failure?: string } {
  const [state, setState] = useState(() => ({ loaded: module.current(), failure: module.failure() }));
  useEffect(() => {
    if (state.loaded !== undefined || state.failure !== undefined) return;
    let live = true;
    void module.promise.then(
      (loaded) => {
        if (live) setState({ loaded, failure: undefined });
      },
      () => {
        if (live) setState({ loaded: undefined, failure: module.failure() ?? 'unknown error' });
      },
    );
    return () => {
      live = false;
    };
  }, [module, state]);
  return state;
}
