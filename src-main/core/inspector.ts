import { join } from 'node:path';
import type { TrafficRecording, TrafficWindow } from '../../src-shared/ipc/inspectorContract';
import type { EventPayload, Handlers } from '../../src-shared/ipc/contract';
import { recordsTraffic, secretValues, withTrafficRecording } from '../../src-shared/inspector/inspectorSettings';
import { createRedactor, PasswordFields, type Redactor } from '../../src-shared/inspector/redact';
import { decodeTrafficLines } from '../../src-shared/inspector/traffic';
import { toJson, type JsonObject } from '../../src-shared/json';
import type { Settings } from '../../src-shared/settings';
import type { TrafficRing } from '../acp/trafficRing';
import { wireLogFile, wireRecorder, type WireRecorder } from '../acp/wireLog';
import { readAgentEnv, type SecretStore } from '../store/secretStore';
import { recordedTraffic } from './recordedTraffic';

/** What the protocol inspector needs of the rest of the core. */
export interface InspectorDeps {
  dataDir: string;
  settings: () => Settings;
  updateSettings: (mutate: (json: JsonObject) => void) => void;
  traffic: (agentId: string) => TrafficRing;
  /** The environment the agent is started with (its settings plus stored sign-in values). */
  launchEnv: (agentId: string) => Record<string, string>;
  recordingFile: (agentId: string) => string | null;
  secrets: SecretStore;
  emit: (payload: EventPayload<'inspector.traffic'>) => void;
}

/** Live rows sent at most this often per agent; more rows than `LIVE_MAX` in one go are skipped (counted). */
const LIVE_INTERVAL_MS = 250;
const LIVE_MAX = 400;
/** A subscription lasts this long unless renewed (the inspector renews it every 20 s while open). */
export const LEASE_MS = 60_000;
/** Earlier lines read with each window (not sent): a secret streamed across its start is found whole. */
const CONTEXT = 64;

/**
 * The protocol inspector's side in main (issue 27): windows of an agent's ring buffer and live
 * traffic, decoded and redacted only when asked (the ring keeps raw lines), and recording to the
 * wire log file for the next start of an agent. Nothing leaves here unredacted.
 */
export class Inspector {
  /** Per agent, the clients watching live traffic and when their lease ends (a page closed without saying so stops counting). */
  private subscribers = new Map<string, Map<string, number>>();
  private sent = new Map<string, number>();
  private timers = new Map<string, ReturnType<typeof setTimeout>>();
  private passwords = new Map<string, PasswordFields>();

  constructor(private readonly deps: InspectorDeps) {}

  /** The redactor for an agent now (its secrets can change with a sign-in). */
  redactor(agentId: string, passwords?: PasswordFields): Redactor {
    const settings = this.deps.settings();
    const values = secretValues(settings, agentId, this.deps.launchEnv(agentId), readAgentEnv(this.deps.secrets, agentId));
    if (!passwords) {
      passwords = this.passwords.get(agentId);
      if (!passwords) this.passwords.set(agentId, (passwords = new PasswordFields()));
    }
    return createRedactor(values, passwords);
  }

  window(agentId: string, beforeSeq?: number, limit = 2000): TrafficWindow {
    const ring = this.deps.traffic(agentId);
    const redactor = this.redactor(agentId);
    const entries = ring.window({ beforeSeq, limit: limit + CONTEXT });
    const rows = decodeTrafficLines(entries, redactor, Math.max(0, entries.length - limit));
    return { rows, dropped: ring.dropped, capacity: ring.capacity, recording: this.recording(agentId) };
  }

  /** Older traffic from the wire log file the agent's process writes (or wrote last, from the inspector's setting). */
  recorded(agentId: string, beforeTime?: number, limit?: number): { file: string | null; rows: TrafficWindow['rows'] } {
    const file = this.deps.recordingFile(agentId) ?? (recordsTraffic(this.deps.settings(), agentId) ? this.fileFor(agentId) : null);
    if (!file) return { file: null, rows: [] };
    return { file, rows: recordedTraffic(file, this.redactor(agentId, new PasswordFields()), beforeTime, limit) };
  }

  recording(agentId: string): TrafficRecording {
    const file = this.deps.recordingFile(agentId);
    return { active: file !== null, next: recordsTraffic(this.deps.settings(), agentId), file };
  }

  setRecording(agentId: string, on: boolean): TrafficRecording {
    this.deps.updateSettings((json) => Object.assign(json, withTrafficRecording(json, agentId, on)));
    return this.recording(agentId);
  }

  /** The recorder for an agent's next process: the setting's folder, else the environment variable's; always redacted. */
  recorder(agentId: string): WireRecorder | null {
    const folder = recordsTraffic(this.deps.settings(), agentId) ? this.folder : undefined;
    // One redactor per process start: its secrets are the ones it was started with (and its
    // own password fields: the file sees each message once, in order).
    const redactor = this.redactor(agentId, new PasswordFields());
    const streams = redactor.streams();
    return wireRecorder(agentId, process.env, Date.now, { folder, redact: (message, dir) => redactor.message(streams.scrub(toJson(message)), dir) });
  }

  get folder(): string {
    return join(this.deps.dataDir, 'logs', 'wire');
  }

  fileFor(agentId: string): string {
    return wireLogFile(this.folder, agentId);
  }

  /** A client starts (or renews, within {@link LEASE_MS}) or stops watching an agent's live traffic. */
  subscribe(agentId: string, clientId: string, on: boolean, now = Date.now()): void {
    const first = !this.subscribers.has(agentId);
    const clients = this.subscribers.get(agentId) ?? new Map<string, number>();
    if (on) clients.set(clientId, now + LEASE_MS);
    else clients.delete(clientId);
    if (!this.live(agentId, clients, now)) return;
    if (first) {
      // Live rows start after what the subscriber fetched (or will fetch) as a window.
      this.sent.set(agentId, this.deps.traffic(agentId).next - 1);
      this.arm(agentId);
    }
  }

  /** Keeps the clients whose lease runs; with none left, live traffic for the agent stops. Whether any is left. */
  private live(agentId: string, clients: Map<string, number>, now: number): boolean {
    for (const [clientId, until] of clients) if (until < now) clients.delete(clientId);
    if (clients.size) {
      this.subscribers.set(agentId, clients);
      return true;
    }
    this.subscribers.delete(agentId);
    this.deps.traffic(agentId).unwatch();
    const timer = this.timers.get(agentId);
    if (timer) clearTimeout(timer);
    this.timers.delete(agentId);
    return false;
  }

  /** Waits for the next line, then sends what came within the interval (never more often). */
  private arm(agentId: string): void {
    const ring = this.deps.traffic(agentId);
    ring.watch(() => {
      if (this.timers.has(agentId)) return;
      this.timers.set(
        agentId,
        setTimeout(() => {
          this.timers.delete(agentId);
          const clients = this.subscribers.get(agentId);
          if (!clients || !this.live(agentId, clients, Date.now())) return;
          this.flush(agentId);
          this.arm(agentId);
        }, LIVE_INTERVAL_MS),
      );
    });
  }

  private flush(agentId: string): void {
    const ring = this.deps.traffic(agentId);
    const after = this.sent.get(agentId) ?? 0;
    const entries = ring.window({ afterSeq: after, limit: LIVE_MAX });
    if (!entries.length) return;
    const newest = entries[entries.length - 1].seq;
    const skipped = Math.max(0, entries[0].seq - after - 1);
    this.sent.set(agentId, newest);
    const redactor = this.redactor(agentId);
    const context = ring.window({ afterSeq: Math.max(0, entries[0].seq - 1 - CONTEXT), beforeSeq: entries[0].seq });
    const rows = decodeTrafficLines([...context, ...entries], redactor, context.length);
    this.deps.emit({ agentId, rows, skipped });
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}

export function inspectorHandlers(
  inspector: Inspector,
): Pick<Handlers, 'inspector.window' | 'inspector.subscribe' | 'inspector.record' | 'inspector.recorded'> {
  return {
    'inspector.window': async ({ agentId, beforeSeq, limit }) => inspector.window(agentId, beforeSeq, limit),
    'inspector.subscribe': async ({ agentId, clientId, on }) => {
      inspector.subscribe(agentId, clientId, on);
      return { ok: true };
    },
    'inspector.record': async ({ agentId, on }) => inspector.setRecording(agentId, on),
    'inspector.recorded': async ({ agentId, beforeTime, limit }) => inspector.recorded(agentId, beforeTime, limit),
  };
}
