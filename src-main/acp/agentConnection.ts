import type * as acp from '@agentclientprotocol/sdk/unstable';
import type { SessionEventBody } from '../../src-shared/session/events';
import type { McpServerSetting } from '../../src-shared/settings';
import { decodeCapabilities } from './decode/controls';
import { obj } from '../../src-shared/acp/read';
import { UserError } from '../errors/errors';
import { logged } from '../log/mainLog';
import type { AgentLink, AgentSessionInfo, OpenHow, PromptOutcome } from './agentLink';
import { AgentWire } from './agentWire';
import type { DecodedSession } from './dialects/dialect';
import { v1 } from './dialects/v1';
import { isObject } from './rawBoundary';

import type { ConfigOption } from '../../src-shared/session/controls';

import type { RawObject } from '../../src-shared/session/raw';
type StateEvent = Extract<SessionEventBody, { kind: 'session.state' }>;

/**
 * The session layer's `AgentLink` over one agent's wire (agentWire.ts): the agent's capabilities,
 * turns, sign-in and the session methods, each encoded by the dialect of the version in use.
 */
export class AgentConnection extends AgentWire implements AgentLink {
  /** Turns waiting for the agent's state to say they ended, by ACP session id (agents that report turns by state). */
  private turns = new Map<string, { resolve(event: StateEvent): void; reject(error: Error): void }>();

  protected override turnEnded(acpSessionId: string, event: StateEvent): void {
    this.turns.get(acpSessionId)?.resolve(event);
  }

  get agentCapabilities(): RawObject {
    return (this.initializeResult?.agentCapabilities ?? {}) as RawObject;
  }

  /** Whether the agent advertised a session capability such as `list`, `resume`, `close`, `fork`. */
  supportsSession(name: string): boolean {
    return decodeCapabilities(this.agentCapabilities).sessionCapabilities.includes(name);
  }

  get supportsLogout(): boolean {
    return decodeCapabilities(this.agentCapabilities).auth.logout;
  }

  get promptCapabilities(): RawObject {
    return obj(this.agentCapabilities.promptCapabilities);
  }

  /**
   * `session/prompt`, returning the raw stop reason even when it is a value the SDK's schema
   * does not know yet (a future ACP stop reason must not turn a finished turn into an error).
   */
  async prompt(params: RawObject, signal?: AbortSignal): Promise<PromptOutcome> {
    const acpSessionId = String(params.sessionId);
    // Agents that report turns by state: the answer only accepts the message; the first idle
    // after running ends the turn. Waiting starts before sending (the idle may come first).
    const ended = new Promise<StateEvent>((resolve, reject) => this.turns.set(acpSessionId, { resolve, reject }));
    const waiter = this.turns.get(acpSessionId)!;
    // Awaited only for agents that report turns by state; otherwise its rejection (the process ended) is expected.
    ended.catch(logged(`Waiting for the end of a turn of ${acpSessionId}`, 'debug'));
    try {
      const result = await this.request<RawObject>(this.dialect.methods.prompt, params, { signal });
      const outcome = this.dialect.decodePromptResult(result);
      if (outcome.kind === 'ended') return { stopReason: outcome.stopReason, usage: outcome.usage, meta: outcome.meta };
      const state = await new Promise<StateEvent>((resolve, reject) => {
        ended.then(resolve, reject);
        if (signal?.aborted) reject(new UserError('cancelled'));
        signal?.addEventListener('abort', () => reject(new UserError('cancelled')), { once: true });
      });
      return { stopReason: state.stopReason ?? 'end_turn', usage: null, meta: outcome.meta, endedInLog: true, error: state.error ?? null };
    } finally {
      if (this.turns.get(acpSessionId) === waiter) this.turns.delete(acpSessionId);
    }
  }

  async authenticate(methodId: string, owner?: string): Promise<void> {
    await this.request(this.dialect.methods.login, this.dialect.encodeLogin(methodId), { timeoutMs: 10 * 60_000, owner });
  }

  encodeMcpServers(servers: readonly McpServerSetting[]): RawObject[] {
    return this.dialect.encodeMcpServers(servers, this.profile ?? v1.decodeInitialize({}));
  }

  async openSession(how: OpenHow, params: RawObject, owner?: string): Promise<DecodedSession> {
    const methods = this.dialect.methods;
    let method: string;
    let wire: RawObject = params;
    if (how === 'new') method = methods.newSession;
    else if (how === 'load' && methods.loadSession) method = methods.loadSession;
    else {
      // No `session/load` in this version: a resume that replays the transcript stands for it.
      method = methods.resumeSession;
      const { sessionId, cwd, mcpServers, additionalDirectories, ...rest } = params;
      wire = {
        ...rest,
        ...this.dialect.encodeResume({
          acpSessionId: String(sessionId),
          cwd: String(cwd),
          mcpServers: Array.isArray(mcpServers) ? (mcpServers as RawObject[]) : [],
          additionalDirectories: Array.isArray(additionalDirectories) ? (additionalDirectories as string[]) : undefined,
          replay: how === 'load',
        }),
      };
    }
    const timeoutMs = how === 'load' ? 120_000 : 60_000;
    const result = await this.request<RawObject>(method, wire, { timeoutMs, owner });
    if (how === 'new' && (typeof result?.sessionId !== 'string' || !result.sessionId))
      throw new UserError('The agent answered session/new without a session id.');
    return this.dialect.decodeSession(isObject(result) ? result : {}, typeof params.sessionId === 'string' ? params.sessionId : undefined);
  }

  async setConfigOption(acpSessionId: string, configId: string, value: string | boolean): Promise<ConfigOption[] | null> {
    const result = await this.request<RawObject>(this.dialect.methods.setConfigOption, this.dialect.encodeSetConfigOption(acpSessionId, configId, value), {
      timeoutMs: 30_000,
    });
    // Decoded as a session answer: the same option shape as `session/new`.
    return this.dialect.decodeSession(isObject(result) ? result : {}, acpSessionId).configOptions;
  }

  async setMode(acpSessionId: string, modeId: string): Promise<void> {
    const method = this.dialect.methods.setMode;
    if (!method) throw new UserError(`${agentTitle(this.initializeResult)} has no session modes (it offers config options instead).`);
    await this.request(method, { sessionId: acpSessionId, modeId }, { timeoutMs: 30_000 });
  }

  cancelTurn(acpSessionId: string): void {
    this.notify(this.dialect.methods.cancel, { sessionId: acpSessionId });
  }

  async cancelAgentWork(acpSessionId: string, work: { terminalId: string } | { toolCallId: string }): Promise<void> {
    const method = 'terminalId' in work ? this.dialect.methods.cancelTerminal : this.dialect.methods.cancelToolCall;
    if (!method) throw new UserError(`${agentTitle(this.initializeResult)} cannot stop this work on request.`);
    await this.request(method, { sessionId: acpSessionId, ...work }, { timeoutMs: 30_000 });
  }

  /** Throws a clear error unless the agent advertised `sessionCapabilities[name]`. */
  requireSession(name: string, what: string): void {
    if (!this.supportsSession(name)) {
      const agent = agentTitle(this.initializeResult);
      throw new UserError(`${agent} does not support ${what} (it does not advertise session/${name}).`);
    }
  }

  /** `session/list` (cursor pagination, cwd filter); only when advertised. */
  async listSessions(cwd?: string, cursor?: string): Promise<{ sessions: AgentSessionInfo[]; nextCursor: string | null }> {
    this.requireSession('list', 'listing its sessions');
    const params: RawObject = {};
    if (cwd) params.cwd = cwd;
    if (cursor) params.cursor = cursor;
    const result = await this.request<RawObject>(this.dialect.methods.listSessions, params, { timeoutMs: 30_000 });
    const sessions = (Array.isArray(result?.sessions) ? result.sessions.filter(isObject) : []).flatMap(sessionInfo);
    return { sessions, nextCursor: typeof result?.nextCursor === 'string' ? result.nextCursor : null };
  }

  async deleteSession(acpSessionId: string): Promise<void> {
    this.requireSession('delete', 'deleting sessions');
    await this.request(this.dialect.methods.deleteSession, { sessionId: acpSessionId }, { timeoutMs: 30_000 });
  }

  async closeSession(acpSessionId: string): Promise<void> {
    this.requireSession('close', 'closing sessions');
    await this.request(this.dialect.methods.closeSession, { sessionId: acpSessionId }, { timeoutMs: 10_000 });
  }

  async forkSession(params: RawObject): Promise<{ sessionId: string }> {
    this.requireSession('fork', 'forking sessions');
    const method = this.dialect.methods.forkSession;
    if (!method) throw new UserError(`${agentTitle(this.initializeResult)} does not support forking sessions.`);
    const result = await this.request<RawObject>(method, params, { timeoutMs: 60_000 });
    if (typeof result?.sessionId !== 'string' || !result.sessionId) throw new UserError('The agent answered session/fork without a session id.');
    return { sessionId: result.sessionId };
  }

  /** `logout`, only when the agent advertised `agentCapabilities.auth.logout`. */
  async logout(): Promise<void> {
    if (!this.supportsLogout) throw new UserError(`${agentTitle(this.initializeResult)} does not support signing out (no auth.logout capability).`);
    await this.request(this.dialect.methods.logout, {}, { timeoutMs: 30_000 });
  }

  override close(): void {
    if (this.isClosed) return;
    super.close();
    for (const turn of this.turns.values()) turn.reject(new UserError('The agent is not running.'));
    this.turns.clear();
  }
}

function agentTitle(init: acp.InitializeResponse | null): string {
  const info = init?.agentInfo as RawObject | undefined;
  return String(info?.title ?? info?.name ?? 'The agent');
}

/** A `session/list` row in the app's terms: the fields it shows, each only when of the right type. */
function sessionInfo(row: RawObject): AgentSessionInfo[] {
  if (typeof row.sessionId !== 'string' || !row.sessionId) return [];
  const info: AgentSessionInfo = { sessionId: row.sessionId };
  if (typeof row.cwd === 'string') info.cwd = row.cwd;
  if (typeof row.title === 'string') info.title = row.title;
  if (typeof row.updatedAt === 'string') info.updatedAt = row.updatedAt;
  return [info];
}
