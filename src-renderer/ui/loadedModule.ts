import { useEffect, useState } from 'react';
import { logRenderer } from '../log';

/** A chunk asked for with `import()` once, and what it exports once it is there. */
export interface LoadedModule<T> {
  promise: Promise<T>;
  /** The module, or undefined while it loads. */
  current(): T | undefined;
}

/** Starts loading a chunk now (not at first render): its fetch runs alongside the page's first requests. */
export function loadModule<T>(load: () => Promise<T>, what: string): LoadedModule<T> {
  let value: T | undefined;
  const promise = load().then((module) => (value = module));
  // What would have been thrown to React by `lazy`: the view stays a "Loading…" placeholder.
  promise.catch((error: unknown) => logRenderer('error', `Loading ${what}`, error));
  return { promise, current: () => value };
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
export function useLoadedModule<T>(module: LoadedModule<T>): T | undefined {
  const [value, setValue] = useState(module.current);
  useEffect(() => {
    if (value !== undefined) return;
    let live = true;
    void module.promise.then(
      (loaded) => {
        if (live) setValue(() => loaded);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [module, value]);
  return value;
}
