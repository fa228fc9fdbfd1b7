/** A time limit as set: one decimal under 10 s (a 1500 ms limit read "within 2 s", which is not what was set). */
export function formatSeconds(ms: number): string {
  if (ms >= 10_000 || ms % 1000 === 0) return `${Math.round(ms / 1000)} s`;
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms} ms`;
}
