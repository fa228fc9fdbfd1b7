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
  /** The file written. */
  readonly file: string;
}

/** The wire log file of an agent in `folder`. */
export function wireLogFile(folder: string, agentId: string | undefined): string {
  return join(folder, `${(agentId ?? 'agent').replace(/[^\w.@-]/g, '_')}.wire.jsonl`);
}

/**
 * A recorder into `options.folder` (recording turned on in the protocol inspector) or the
 * variable's folder; null when neither is set. `redact` runs on each message before it is
 * written: no secret reaches the file (src-shared/inspector/redact.ts).
 */
export function wireRecorder(
  agentId: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  now: () => number = Date.now,
  options: { folder?: string; redact?: (message: unknown, dir: 'in' | 'out') => unknown } = {},
): WireRecorder | null {
  const folder = options.folder ?? env[WIRE_LOG_ENV]?.trim();
  if (!folder) return null;
  const redact = options.redact ?? ((message: unknown) => message);
  const way = { 'agent→client': 'in', 'client→agent': 'out' } as const;
  const file = wireLogFile(folder, agentId);
  const started = now();
  let failed = false;
  const append = (dir: keyof typeof way, msg: unknown) => {
    if (failed) return;
    try {
      mkdirSync(folder, { recursive: true });
      // `at`: the time (epoch ms), so the inspector can show the file's older lines in order.
      const at = now();
      appendFileSync(file, `${JSON.stringify({ dir, t: at - started, at, msg: redact(msg, way[dir]) })}\n`);
    } catch (error) {
      // Diagnostics must never break the session: one warning, then the recorder is off.
      failed = true;
      logWarn(`Recording ACP messages in ${file} (${WIRE_LOG_ENV}); stopped`, error);
    }
  };
  return { file, incoming: (message) => append('agent→client', message), outgoing: (message) => append('client→agent', message) };
}
