import type { SessionEventBody } from '../../src-shared/session/events';
import type { Session } from './session';

/**
 * Which app session an agent's ACP session id belongs to. Keyed by (agent, ACP session id):
 * each agent has one connection at a time and its own client-side handlers, so an id is only
 * ever looked up among the sessions of the connection that sent it. Two agents may both call
 * their session `sess-1`; an agent naming another agent's session reaches nothing.
 *
 * Agents may send updates (commands, modes) before their `session/new` answer arrives: those
 * are held briefly (bounded) until the id is bound, then recorded in order.
 */
export class AcpRoutes {
  private routes = new Map<string, Session>();
  private early = new Map<string, { at: number; updates: SessionEventBody[] }>();

  constructor(private readonly onDropped: (agentId: string, acpSessionId: string, count: number) => void) {}

  find(agentId: string, acpSessionId: string): Session | undefined {
    return this.routes.get(key(agentId, acpSessionId));
  }

  /** Whether another agent's session has this ACP id (an update naming it is not for the sender). */
  boundElsewhere(agentId: string, acpSessionId: string): boolean {
    for (const session of this.routes.values()) if (session.agentId !== agentId && session.acpSessionId === acpSessionId) return true;
    return false;
  }

  /** Binds the session to its ACP id and records the updates that arrived for it early. */
  bind(session: Session, acpSessionId: string): void {
    if (session.acpSessionId && session.acpSessionId !== acpSessionId) this.unbind(session);
    session.bindAcpSession(acpSessionId);
    this.routes.set(key(session.agentId, acpSessionId), session);
    const held = this.early.get(key(session.agentId, acpSessionId));
    this.early.delete(key(session.agentId, acpSessionId));
    for (const event of held?.updates ?? []) session.record(event);
  }

  unbind(session: Session): void {
    if (!session.acpSessionId) return;
    const k = key(session.agentId, session.acpSessionId);
    if (this.routes.get(k) === session) this.routes.delete(k);
  }

  /** An update for an id this agent has not bound (yet): kept up to a minute, then dropped and logged. */
  holdEarly(agentId: string, acpSessionId: string, update: SessionEventBody): void {
    const now = Date.now();
    for (const [k, entry] of this.early) {
      if (now - entry.at <= 60_000) continue;
      this.early.delete(k);
      const [agent, id] = k.split('\n');
      this.onDropped(agent, id, entry.updates.length);
    }
    const k = key(agentId, acpSessionId);
    let entry = this.early.get(k);
    if (!entry) {
      if (this.early.size >= 20) return this.onDropped(agentId, acpSessionId, 1);
      this.early.set(k, (entry = { at: now, updates: [] }));
    }
    if (entry.updates.length < 500) entry.updates.push(update);
  }
}

function key(agentId: string, acpSessionId: string): string {
  return `${agentId}\n${acpSessionId}`;
}
