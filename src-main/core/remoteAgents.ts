import type { AgentSummary } from '../../src-shared/ipc/appState';
import { agentHeadersKey, checkRemoteUrl, type RemoteAgentView, type RemoteEndpoint, type RemoteState } from '../../src-shared/remote';
import type { CustomAgent } from '../../src-shared/settings';
import { isPermanentFailure } from '../acp/remoteErrors';
import type { AgentDefinition } from '../agents/agentManager';
import type { ExitInfo } from '../process/agentProcess';
import { logged } from '../log/mainLog';
import { readStringMap, type SecretStore, writeStringMap } from '../store/secretStore';

/** A remote agent's secret header values (kept in the secret store, never in settings.json). */
export function readAgentHeaders(store: SecretStore | undefined, agentId: string): Record<string, string> {
  return readStringMap(store, agentHeadersKey(agentId), `the stored headers of ${agentId}`);
}

export function writeAgentHeaders(store: SecretStore, agentId: string, headers: Record<string, string>): void {
  writeStringMap(store, agentHeadersKey(agentId), headers);
}

/** A remote agent from settings.json: its endpoint (secret headers merged in from the store). */
export function remoteAgentDefinition(agent: CustomAgent, secrets?: SecretStore): AgentDefinition {
  const url = agent.url!;
  const remote: RemoteEndpoint = {
    url,
    headers: { ...agent.headers, ...readAgentHeaders(secrets, agent.id) },
    // Off unless the person turned them on (the settings keep only what was written).
    allowInsecure: agent.allowInsecure ?? false,
    clientFs: agent.clientFs ?? false,
    clientTerminal: agent.clientTerminal ?? false,
    ...(agent.stallSeconds ? { stallSeconds: agent.stallSeconds } : {}),
  };
  return {
    id: agent.id,
    name: agent.name,
    source: 'custom',
    description: `Remote agent at ${url}`,
    launch: { command: '', args: [], env: {}, remote },
  };
}

/** Waits between reconnect attempts: 1, 2, 4, 8, 15 s, then every 30 s, ten attempts in all. */
export const DEFAULT_BACKOFF_MS = [1000, 2000, 4000, 8000, 15_000, 30_000, 30_000, 30_000, 30_000, 30_000];

/** What the supervisor needs from the agents and sessions (no service sees the core). */
export interface RemoteAgentsDeps {
  endpoint(agentId: string): RemoteEndpoint | undefined;
  /** Connects the agent (initialize); rejects with why not. */
  connect(agentId: string): Promise<unknown>;
  /** Ends the sessions' turns with `message`, and returns what to reconnect afterwards. */
  detachSessions(agentId: string, message: string): { reconnect(): Promise<unknown>; notice(message: string): void }[];
  changed(): void;
  backoffMs?: number[];
}

interface Supervised {
  state: 'reconnecting' | 'offline';
  lastError: string;
  retryAt?: number;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * Connection life of remote agents: their visible state, and reconnecting with backoff after
 * the connection was lost (the sessions then continue with `session/resume` or `session/load`;
 * ACP v1 replays nothing sent while disconnected, so a cut turn says so). Failures retrying
 * cannot fix (401, 403, a refused URL, TLS) stop the retries at once: no retry storm.
 */
export class RemoteAgents {
  private supervised = new Map<string, Supervised>();
  private readonly backoff: number[];

  constructor(private readonly deps: RemoteAgentsDeps) {
    this.backoff = deps.backoffMs?.length ? deps.backoffMs : DEFAULT_BACKOFF_MS;
  }

  /** The remote part of an agent's summary (undefined for a local agent). */
  view(summary: AgentSummary): RemoteAgentView | undefined {
    const endpoint = this.deps.endpoint(summary.id);
    if (!endpoint) return undefined;
    const check = checkRemoteUrl(endpoint.url, endpoint.allowInsecure);
    const supervised = this.supervised.get(summary.id);
    let state: RemoteState;
    if (summary.process === 'starting') state = supervised ? 'reconnecting' : 'connecting';
    else if (summary.process === 'ready') state = 'connected';
    else state = supervised?.state ?? 'offline';
    const lastError = summary.process === 'ready' ? undefined : (supervised?.lastError ?? summary.error);
    return {
      url: endpoint.url,
      transport: check.ok ? check.transport : /^wss?:/i.test(endpoint.url) ? 'websocket' : 'http',
      state,
      ...(lastError ? { lastError } : {}),
      ...(state === 'reconnecting' && supervised?.retryAt ? { retryAt: supervised.retryAt } : {}),
      machine: check.ok ? check.machine : endpoint.url,
      clientFs: endpoint.clientFs,
      clientTerminal: endpoint.clientTerminal,
      ...(check.ok && check.warning ? { insecureWarning: check.warning } : {}),
    };
  }

  /**
   * A connected agent's connection ended. For a remote agent whose connection was lost this
   * takes over from the local "agent exited" path (returns true): turns are cut with the reason,
   * and reconnecting starts.
   */
  handleExit(agentId: string, info: ExitInfo): boolean {
    if (!this.deps.endpoint(agentId) || !info.lost) return false;
    const sessions = this.deps.detachSessions(agentId, info.lost);
    const entry: Supervised = { state: 'reconnecting', lastError: info.lost };
    this.supervised.set(agentId, entry);
    if (isPermanentFailure(info.lost)) {
      entry.state = 'offline';
      this.deps.changed();
      return true;
    }
    this.schedule(agentId, entry, 0, sessions);
    return true;
  }

  private schedule(agentId: string, entry: Supervised, attempt: number, sessions: ReturnType<RemoteAgentsDeps['detachSessions']>): void {
    if (attempt >= this.backoff.length) {
      entry.state = 'offline';
      entry.retryAt = undefined;
      this.deps.changed();
      return;
    }
    const wait = this.backoff[attempt];
    entry.retryAt = Date.now() + wait;
    this.deps.changed();
    entry.timer = setTimeout(() => {
      if (this.supervised.get(agentId) !== entry) return;
      this.deps.connect(agentId).then(
        () => {
          if (this.supervised.get(agentId) === entry) this.supervised.delete(agentId);
          for (const session of sessions) {
            session.notice('Reconnected; the session continues. Anything the agent sent while disconnected is not shown (ACP v1 has no replay).');
            void session.reconnect().catch(logged(`Reconnecting a session of ${agentId}`, 'warn'));
          }
          this.deps.changed();
        },
        (error: Error) => {
          if (this.supervised.get(agentId) !== entry) return;
          entry.lastError = error.message;
          if (isPermanentFailure(error.message)) {
            entry.state = 'offline';
            entry.retryAt = undefined;
            this.deps.changed();
            return;
          }
          this.schedule(agentId, entry, attempt + 1, sessions);
        },
      );
    }, wait);
    entry.timer.unref?.();
  }

  /** The person restarted (reconnected) the agent by hand, or it was removed: stop retrying. */
  forget(agentId: string): void {
    const entry = this.supervised.get(agentId);
    if (entry?.timer) clearTimeout(entry.timer);
    this.supervised.delete(agentId);
  }

  dispose(): void {
    for (const id of [...this.supervised.keys()]) this.forget(id);
  }
}
