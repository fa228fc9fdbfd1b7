import { z } from 'zod';
import { request } from './define';

/** The main process's log file (`<data>/logs/main.log`), for the agent info dialog. Spread into `contract.ts`. */
export interface MainLog {
  /** The log file; null when this process has none (never in the app). */
  path: string | null;
  /** Its last lines, oldest first. */
  lines: string[];
  /** Whether `log.open` can open the file here (the desktop app; the browser host shows the lines). */
  canOpen: boolean;
}

export const logRequests = {
  'log.read': request<MainLog>()(z.object({}).strict(), "The main process's log file and its last lines."),
  'log.open': request<{ ok: true }>()(z.object({}).strict(), "Open the main process's log file in the system's viewer (desktop app only)."),
};
