import { readFileSync } from 'node:fs';
import type { TraceEvent } from './profileSummary';

/** What one click cost the page's main thread, from its dispatch to the end of the frame after it. */
export interface ClickFrame {
  /** Thread CPU of the click's dispatch (React's render and commit, the style and layout they force). */
  clickMs: number;
  /** Thread CPU of the frame after it (style, layout, pre-paint, paint, layerize not done in the click). */
  frameMs: number;
  /** Elements whose style was computed, and layout objects laid out, in that window. */
  styled: number;
  laidOut: number;
}

/**
 * Each click of a Chromium trace (`devtools.timeline`) as the work it cost, read where it is
 * spent rather than timed: thread CPU is what the page did, steadier than the wall clock on a
 * loaded machine, and the counts of elements styled and laid out say how much of the page a tab
 * switch touched (issue 23, round 8).
 */
export function clickFrames(file: string): ClickFrame[] {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(raw) ? raw : (raw.traceEvents ?? []);
  const mains = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const spans = events.filter((e) => e.ph === 'X' && e.dur !== undefined && mains.has(`${e.pid}:${e.tid}`)).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const clicks = spans.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'click');
  return clicks.map((click) => {
    const clickEnd = click.ts + click.dur!;
    // The frame ends with its layerization (the main thread's last step before the commit).
    const layerize = spans.find((e) => e.name === 'Layerize' && e.ts >= clickEnd);
    const end = layerize ? layerize.ts + layerize.dur! : clickEnd;
    let frameMs = 0;
    let styled = 0;
    let laidOut = 0;
    let outerEnd = -Infinity;
    for (const e of spans) {
      if (e.ts < click.ts || e.ts >= end) continue;
      if (e.name === 'UpdateLayoutTree') styled += e.args?.elementCount ?? 0;
      if (e.name === 'Layout') laidOut += e.args?.beginData?.dirtyObjects ?? 0;
      // Outermost events after the click's dispatch: the frame's own work.
      if (e.ts >= clickEnd && e.ts >= outerEnd) {
        frameMs += (e.tdur ?? e.dur!) / 1000;
        outerEnd = e.ts + e.dur!;
      }
    }
    return { clickMs: (click.tdur ?? click.dur!) / 1000, frameMs, styled, laidOut };
  });
}
