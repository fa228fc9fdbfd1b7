import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { logWarn } from '../log/mainLog';

/**
 * `ACP_DESKTOP_WIRE_LOG=<folder>`: every agent's ACP messages, both ways, are appended to
 * `<folder>/<agent id>.wire.jsonl` as `{"dir":"client→agent"|"agent→client","t":<ms>,"msg":…}`
 * (the format of `e2e/agents/wireTap.mjs`). Off unless set: it is for telling an agent's fault
 * from the app's (the compatibility suite sets it for agents the app installed itself, whose
 * command line it must not change).
 */
export const WIRE_LOG_ENV = 'ACP_DESKTOP_WIRE_LOG';

export interface WireRecorder {
  incoming(message: unknown): void;
  outgoing(message: unknown): void;
}

export function wireRecorder(agentId: string | undefined, env: NodeJS.ProcessEnv = process.env, now: () => number = Date.now): WireRecorder | null {
  const folder = env[WIRE_LOG_ENV]?.trim();
  if (!folder) return null;
  const file = join(folder, `${(agentId ?? 'agent').replace(/[^\w.@-]/g, '_')}.wire.jsonl`);
  const started = now();
  let failed = false;
  const append = (dir: string, msg: unknown) => {
    if (failed) return;
    try {
      mkdirSync(folder, { recursive: true });
      appendFileSync(file, `${JSON.stringify({ dir, t: now() - started, msg })}\n`);
    } catch (error) {
      // Diagnostics must never break the session: one warning, then the recorder is off.
      failed = true;
      logWarn(`Recording ACP messages in ${file} (${WIRE_LOG_ENV}); stopped`, error);
    }
  };
  return { incoming: (message) => append('agent→client', message), outgoing: (message) => append('client→agent', message) };
}
