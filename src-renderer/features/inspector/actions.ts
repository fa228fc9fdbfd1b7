import { bridge } from '../../bridge';
import { run } from '../../store';

/** The newest rows of an agent's traffic (redacted in main). */
export const fetchTraffic = (agentId: string, beforeSeq?: number) => run(bridge.request('inspector.window', { agentId, beforeSeq, limit: 2000 }));

/** This page, for main's count of who watches live traffic (a lease: renewed while the inspector is open). */
const CLIENT_ID = globalThis.crypto?.randomUUID?.() ?? `page-${Date.now()}-${Math.random()}`;

/** Live traffic of an agent while the inspector is open (call again with `on` to renew the lease). */
export const subscribeTraffic = (agentId: string, on: boolean) => run(bridge.request('inspector.subscribe', { agentId, clientId: CLIENT_ID, on }));

/** Records the agent's traffic to its wire log file from its next start (persisted). */
export const setRecording = (agentId: string, on: boolean) => run(bridge.request('inspector.record', { agentId, on }));

/** Older traffic from the agent's wire log file (when it records), before `beforeTime`. */
export const fetchRecorded = (agentId: string, beforeTime?: number) => run(bridge.request('inspector.recorded', { agentId, beforeTime, limit: 2000 }));
