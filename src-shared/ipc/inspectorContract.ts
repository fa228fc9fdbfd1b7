import { z } from 'zod';
import type { TrafficRow } from '../inspector/traffic';
import { event, request } from './define';

/**
 * The protocol inspector (issue 27): a window of an agent's recent JSON-RPC traffic from main's
 * ring buffer, live traffic while the inspector is open, and recording to the wire log file.
 * Every row is redacted in main before it is sent (src-shared/inspector/redact.ts).
 * Spread into `contract.ts`.
 */
const agentId = z.string().min(1).max(200);

/** Recording of an agent's traffic to `<data>/logs/wire/<agent>.wire.jsonl`. */
export interface TrafficRecording {
  /** Whether the running process records (decided when it started). */
  active: boolean;
  /** The persisted setting: whether the next start records. */
  next: boolean;
  /** The file written when recording (null when none is). */
  file: string | null;
}

export interface TrafficWindow {
  rows: TrafficRow[];
  /** Rows the ring buffer dropped since the agent's first start (memory is bounded). */
  dropped: number;
  /** The ring buffer's bound, in messages. */
  capacity: number;
  recording: TrafficRecording;
}

export const inspectorRequests = {
  'inspector.window': request<TrafficWindow>()(
    z.object({ agentId, beforeSeq: z.number().int().min(1).optional(), limit: z.number().int().min(1).max(5000).optional() }).strict(),
    "A window of an agent's recent JSON-RPC traffic, both ways, redacted (the newest `limit` rows before `beforeSeq`).",
  ),
  'inspector.subscribe': request<{ ok: true }>()(
    z.object({ agentId, clientId: z.string().min(1).max(100), on: z.boolean() }).strict(),
    "Start, renew (a lease of a minute) or stop receiving an agent's live traffic as `inspector.traffic` events; `clientId`: the page's own id.",
  ),
  'inspector.recorded': request<{ file: string | null; rows: TrafficRow[] }>()(
    z.object({ agentId, beforeTime: z.number().optional(), limit: z.number().int().min(1).max(5000).optional() }).strict(),
    "Older traffic from the agent's wire log file (when it records): the newest `limit` lines before `beforeTime`, redacted again.",
  ),
  'inspector.record': request<TrafficRecording>()(
    z.object({ agentId, on: z.boolean() }).strict(),
    "Record the agent's traffic (redacted) to its wire log file from its next start on (a persisted setting).",
  ),
};

export const inspectorEvents = {
  'inspector.traffic': event<{ agentId: string; rows: TrafficRow[]; skipped: number }>(
    'New traffic of an agent someone subscribed to (at most a few times a second; `skipped`: rows left out while flooding).',
  ),
};
