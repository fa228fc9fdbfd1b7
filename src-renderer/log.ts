/**
 * The renderer's log: the browser's console (the developer tools of the window or tab). One
 * helper, so every failure the UI handles without showing it says what was being done.
 * `debug` is for expected failures (best-effort work); `warn` for lost work the person may notice.
 */
export type RendererLogLevel = 'error' | 'warn' | 'debug';

export function logRenderer(level: RendererLogLevel, what: string, error?: unknown): void {
  console[level](`acp-desktop: ${what}`, ...(error === undefined ? [] : [error]));
}

/** For promises left running: `void work().catch(logged('saving the draft'))`. */
export function logged(what: string, level: RendererLogLevel = 'warn'): (error: unknown) => void {
  return (error) => logRenderer(level, what, error);
}
