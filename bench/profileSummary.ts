import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
  startTime: number;
  endTime: number;
}

/** The functions with the most self time in a .cpuprofile (CDP or `node --cpu-prof`), as lines. */
export function hottest(file: string, count: number): string[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let total = 0;
  for (let i = 0; i < samples.length; i++) {
    const node = byId.get(samples[i]);
    if (!node) continue;
    const ms = (deltas[i + 1] ?? deltas[i] ?? 0) / 1000;
    const { functionName, url, lineNumber } = node.callFrame;
    const name = `${functionName || '(anonymous)'} ${url.split('/').pop() ?? ''}:${lineNumber + 1}`;
    self.set(name, (self.get(name) ?? 0) + ms);
    total += ms;
  }
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, ms]) => `${ms.toFixed(0).padStart(7)} ms ${((ms / total) * 100).toFixed(1).padStart(5)}%  ${name}`);
}

/** A Chromium trace event, as far as the benches read it. */
export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; elementCount?: number; data?: { type?: string }; beginData?: { dirtyObjects?: number } };
}

/**
 * The page's main-thread time in a Chromium trace: the outermost events on every
 * `CrRendererMain` thread, as thread CPU time (`tdur`: what the thread ran, not how long it
 * waited for a core, so steadier on a loaded machine) and wall time.
 */
export function mainThreadTime(file: string): { cpuMs: number; wallMs: number } {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(raw) ? raw : (raw.traceEvents ?? []);
  const mains = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const spans = events.filter((e) => e.ph === 'X' && e.dur !== undefined && mains.has(`${e.pid}:${e.tid}`)).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  let end = -Infinity;
  let cpu = 0;
  let wall = 0;
  for (const e of spans) {
    if (e.ts < end) continue; // nested in the event before
    end = e.ts + e.dur!;
    cpu += e.tdur ?? 0;
    wall += e.dur!;
  }
  return { cpuMs: cpu / 1000, wallMs: wall / 1000 };
}

/** The page main thread's trace events by name (total wall ms, count), largest first: where layout, style and script went. */
export function traceSummary(file: string, count = 15): string[] {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(raw) ? raw : (raw.traceEvents ?? []);
  const mains = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const totals = new Map<string, { ms: number; n: number }>();
  for (const e of events) {
    if (e.ph !== 'X' || e.dur === undefined || !mains.has(`${e.pid}:${e.tid}`)) continue;
    const total = totals.get(e.name) ?? { ms: 0, n: 0 };
    total.ms += e.dur / 1000;
    total.n++;
    totals.set(e.name, total);
  }
  return [...totals.entries()]
    .sort((a, b) => b[1].ms - a[1].ms)
    .slice(0, count)
    .map(([name, { ms, n }]) => `${ms.toFixed(0).padStart(7)} ms ×${String(n).padStart(5)}  ${name}`);
}
