import type { ExitInfo } from '../process/agentProcess';

/** One line for how an agent's process ended (kept apart from the SDK so the core loads without it). */
export function describeExit(info: ExitInfo, stderrTail: string[] = []): string {
  const tail = stderrTail.filter((line) => line.trim()).slice(-3);
  const suffix = tail.length ? ` Last output: ${tail.join(' | ')}` : '';
  if (info.lost) return info.lost;
  if (info.spawnError) return `The agent could not be started: ${info.spawnError}`;
  if (info.signal) return `The agent was stopped by signal ${info.signal}.${suffix}`;
  return `The agent exited with code ${info.code}.${suffix}`;
}
