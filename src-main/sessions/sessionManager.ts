// Over 400 lines on purpose: this is the one router between the contract and the sessions (open,
// restore, route by agent and session id, the per-frame batch); each method is a few lines that hand
// off to Session, sessionConnect, clientHandlers or signIn, and splitting it would only scatter the table.
import { randomUUID } from 'node:crypto';
import { basename, join } from 'node:path';
import type { SessionSummary } from '../../src-shared/ipc/appState';
import type { ContentBlock, SessionEvent, SessionEventBody } from '../../src-shared/session/events';
import type { Settings } from '../../src-shared/settings';
import type { SessionState } from '../../src-shared/session/state';
import { type ClientSide } from '../acp/clientSide';
import { UserError } from '../errors/errors';
import type { AgentLink, AgentSessionInfo } from '../acp/agentLink';
import type { JsonObject } from '../../src-shared/json';
import type { AgentManager } from '../agents/agentManager';
import { logged, logWarn } from '../log/mainLog';
import { pathInside } from '../store/dataPath';
import { damageNotice, readEventLog } from '../store/eventLog';
import { AcpRoutes } from './acpRoutes';
import { createClientSide } from './clientHandlers';
import { coalesceChunks } from './coalesceChunks';
import { EventBatcher } from './eventBatcher';
import { permissionKey, REMEMBERED_KINDS } from './permissionMemory';
import { QuietCompaction } from './quietCompaction';
import { type ElicitationAnswer, Session, type SessionHost } from './session';
import { connectSession, setupParams } from './sessionConnect';
import { foldLog, settle } from './sessionRestore';
import { requireAuth, SignIn } from './signIn';

export interface SessionManagerOptions {
  dataDir: string;
  agents: AgentManager;
  settings: () => Settings;
  emit: (sessionId: string, events: SessionEvent[]) => void;
  onChange: () => void;
  /** A session was opened by `open()`: show it in a tab. */
  opened?: (sessionId: string) => void;
  /** How long an agent may take to end a turn after `session/cancel` before we end it ourselves. */
  cancelGraceMs?: number;
  /** Changes settings.json (remembered permission choices); throws when the file is malformed. */
  updateSettings?: (mutate: (json: JsonObject) => void) => void;
  /** Checkpoints before and after every turn (issue 24; see `SessionHost`). */
  turnHooks?: Pick<SessionHost, 'beforeTurn' | 'afterTurn'>;
  /** Collects the garbage of reading sessions back once the host is quiet (tests pass their own). */
  compaction?: QuietCompaction;
  /** A session was folded back from its log (`logSize` bytes of it), before anything is recorded on it. */
  restored?: (sessionId: string, logSize: number, state: SessionState) => void;
  /** A session was closed (it is no longer live). */
  closed?: (sessionId: string) => void;
}

/** What a new session starts from: `session.new`, a fork, "continue", or a row of the agent's list. */
export interface OpenSpec {
  agentId: string;
  agentName: string;
  cwd: string;
  additionalDirectories?: string[];
  /** Bound to an agent's session from the start (a fork, a row of the agent's list): loaded or resumed on connect. */
  acpSessionId?: string;
  title?: string;
  forkedFrom?: string;
  continuedFrom?: string;
  /** A fork's transcript so far: the parent's events, recorded again as this session's. */
  transcript?: readonly SessionEvent[];
  /** Events recorded after the transcript (a fork's title and notice). */
  then?: SessionEventBody[];
}

/**
 * The open sessions, by app id: creating and restoring them, routing each request of the app
 * to its `Session`, and each message of an agent connection to the session it names.
 */
export class SessionManager {
  /** Open sessions by app id (read-only outside this folder: use `live()` and `get()`). */
  readonly sessions = new Map<string, Session>();
  private readonly routes = new AcpRoutes((agentId, acpSessionId, count) =>
    this.log(`Dropped ${count} session/update(s) from ${this.agentName(agentId)} for session ${acpSessionId}, which it never opened.`),
  );
  /** URL elicitations by `elicitationId` → app session, for `elicitation/complete`. */
  private urlElicitations = new Map<string, string>();
  private readonly batcher: EventBatcher;
  private readonly signIn: SignIn;
  private readonly host: SessionHost;
  private readonly compaction: QuietCompaction;

  constructor(private readonly options: SessionManagerOptions) {
    this.compaction = options.compaction ?? new QuietCompaction();
    this.batcher = new EventBatcher((sessionId, events) => {
      this.compaction.busy();
      const session = this.sessions.get(sessionId);
      // Written before it is shown: what the person saw is on disk if we crash next.
      session?.log.append(events);
      session?.fold(); // the frame's events in one go
      this.options.emit(sessionId, coalesceChunks(events));
    });
    this.host = {
      push: (event) => this.batcher.push(event),
      changed: () => this.options.onChange(),
      connect: (session) => this.connect(session),
      capabilities: (agentId) => this.options.agents.capabilities(agentId),
      requireAuth: (session, message) => requireAuth(this.options.agents, session, message),
      cancelGraceMs: options.cancelGraceMs ?? 10_000,
      ...options.turnHooks,
    };
    this.signIn = new SignIn({
      agents: options.agents,
      sessions: () => this.sessions.values(),
      isOpen: (session) => this.sessions.get(session.id) === session,
      connect: (session) => this.connect(session),
      stopAgentSessions: (agentId, message) => this.stopAgentSessions(agentId, message),
      restartAgent: (agentId) => this.restartAgent(agentId),
    });
  }

  logFile(sessionId: string): string {
    return pathInside(join(this.options.dataDir, 'sessions'), `${sessionId}.jsonl`);
  }

  /** Flushes pending batches now (before quitting, in tests). */
  flush(): void {
    this.batcher.flush();
  }

  summary(session: Session): SessionSummary {
    const s = session.fold();
    return {
      sessionId: session.id,
      agentId: session.agentId,
      agentName: s.agentName,
      cwd: s.cwd,
      title: s.title,
      status: s.status,
      lastActivity: s.lastActivity,
      needsAttention: s.permissions.length + s.elicitations.length + (s.authMethods ? 1 : 0),
      readonly: Boolean(s.readonlyReason),
    };
  }

  summaries(): SessionSummary[] {
    return [...this.sessions.values()].map((session) => this.summary(session));
  }

  get(sessionId: string): Session {
    const session = this.sessions.get(sessionId);
    if (!session) throw new UserError(`No session "${sessionId}".`);
    return session;
  }

  /** The open session with this id, if any. */
  live(sessionId: string): Session | undefined {
    return this.sessions.get(sessionId);
  }

  /** Events after `afterSeq`, from the log plus what is not flushed yet. */
  async events(sessionId: string, afterSeq: number): Promise<SessionEvent[]> {
    const session = this.get(sessionId);
    this.batcher.flush();
    const { events } = await readEventLog(session.log.file);
    return events.filter((event) => event.seq > afterSeq);
  }

  /** The state folded to every event recorded, once the batch is flushed (the page has been sent each of them). */
  current(sessionId: string): SessionState {
    const session = this.get(sessionId);
    this.batcher.flush();
    this.compaction.busy();
    return session.fold();
  }

  // ---------------------------------------------------------------- opening

  /**
   * Opens a new session: recorded, shown in a tab, connected in the background (the tab shows
   * "starting" and then the agent's answer or error). The one path for `session.new`, a fork,
   * "continue in a new session" and a session opened from the agent's list.
   */
  open(spec: OpenSpec, beforeShown?: (session: Session) => void): Session {
    const session = this.create(spec);
    beforeShown?.(session);
    this.options.opened?.(session.id);
    void this.connect(session).catch(logged(`Connecting session ${session.id} to ${spec.agentId}`, 'warn'));
    return session;
  }

  /** Records a new session without opening a tab or connecting (`open()` does both). */
  create(spec: OpenSpec): Session {
    const id = `s_${randomUUID()}`;
    const session = new Session(id, spec.agentId, this.logFile(id), this.host);
    this.sessions.set(id, session);
    session.markOpenedFromList(Boolean(spec.acpSessionId) && !spec.transcript);
    const { agentId, agentName, cwd, title, acpSessionId, forkedFrom, continuedFrom } = spec;
    const additionalDirectories = spec.additionalDirectories?.length ? spec.additionalDirectories : undefined;
    session.record({
      kind: 'session.created',
      agentId,
      agentName,
      cwd,
      ...(additionalDirectories ? { additionalDirectories } : {}),
      ...(title ? { title } : {}),
      ...(acpSessionId && !spec.transcript ? { acpSessionId } : {}),
      ...(forkedFrom ? { forkedFrom } : {}),
      ...(continuedFrom ? { continuedFrom } : {}),
    });
    if (spec.transcript) {
      // The fork's own `session.created` is above; the rest of the parent's log follows, numbered
      // by this session's recorder, then the fork is bound to its own ACP session.
      for (const event of spec.transcript) if (event.kind !== 'session.created') session.record(event, event.ts);
      for (const body of spec.then ?? []) session.record(body);
      if (acpSessionId) session.record({ kind: 'session.bound', acpSessionId, origin: 'fork' });
      settle(session, session.fold());
    } else {
      for (const body of spec.then ?? []) session.record(body);
    }
    session.bindAcpSession();
    return session;
  }

  /** Records an app event on a live session (history: a rename). */
  recordEvent(sessionId: string, body: SessionEventBody): void {
    const session = this.get(sessionId);
    session.record(body);
    session.fold();
  }

  /** Rebuilds a session by folding its log (app restart). It reconnects on the next prompt. */
  async restore(sessionId: string): Promise<Session | null> {
    const existing = this.sessions.get(sessionId);
    if (existing) return existing;
    // Opened again while its log is being read (the page opens a tab the host is restoring):
    // one fold, not a second whole state in memory at once (issue 23).
    let restoring = this.restoring.get(sessionId);
    if (!restoring) {
      restoring = this.restoreOnce(sessionId).finally(() => this.restoring.delete(sessionId));
      this.restoring.set(sessionId, restoring);
    }
    return restoring;
  }

  private readonly restoring = new Map<string, Promise<Session | null>>();

  /**
   * The saved tabs are back: what reading them left is collected now (`quietCompaction.ts`), before
   * the page is told the last one is, rather than under the person's first clicks a second later.
   */
  restoredTabs(): void {
    this.compaction.settle();
  }

  /** The restore of this session in flight, if any (the history waits for it rather than folding the log a second time). */
  restoringNow(sessionId: string): Promise<Session | null> | undefined {
    return this.restoring.get(sessionId);
  }

  private async restoreOnce(sessionId: string): Promise<Session | null> {
    const read = this.compaction.read();
    const folded = await foldLog(this.logFile(sessionId)).finally(read);
    if (!folded) return null;
    // Created while the log was being read: that one wins.
    const raced = this.sessions.get(sessionId);
    if (raced) return raced;
    const session = new Session(sessionId, folded.state.agentId, this.logFile(sessionId), this.host, folded.state);
    this.sessions.set(sessionId, session);
    this.options.restored?.(sessionId, folded.logSize, folded.state);
    // Damage already reported in an earlier run is not reported again on every restart; any
    // damaged line no notice names (wherever it is in the log) reports them all, with positions.
    if (folded.unreported > 0) session.record(damageNotice(folded.damaged, folded.unreported, basename(this.logFile(sessionId))));
    settle(session, folded.state, folded.capabilities);
    session.fold();
    return session;
  }

  /** Connects the session to its agent: `session/new`, or `session/resume`/`session/load` for a restored one. */
  connect(session: Session): Promise<AgentLink> {
    return connectSession(session, {
      agents: this.options.agents,
      settings: this.options.settings,
      routes: this.routes,
      requireAuth: (target, message) => requireAuth(this.options.agents, target, message),
    });
  }

  // ---------------------------------------------------------------- turns and the person's answers

  prompt(sessionId: string, prompt: ContentBlock[]): { queued: boolean } {
    return this.get(sessionId).prompt(prompt);
  }

  /** Cancels the running turn: `session/cancel`, every pending request answered `cancelled`. */
  cancel(sessionId: string): void {
    this.get(sessionId).cancel();
  }

  close(sessionId: string): void {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    session.detach({ kind: 'closed' });
    this.batcher.flush();
    session.log.close();
    this.routes.unbind(session);
    this.sessions.delete(sessionId);
    this.options.closed?.(sessionId);
  }

  respondPermission(sessionId: string, requestId: string, optionId: string | null): void {
    const session = this.get(sessionId);
    const chosen = session.answerPermission(requestId, optionId);
    if (chosen && REMEMBERED_KINDS.has(chosen.option.kind))
      this.rememberPermission(session, permissionKey(session.agentId, chosen.toolKind), chosen.option.kind);
  }

  /** Keeps an "always" choice in settings (`alwaysAllow`); a settings file that cannot be written is reported. */
  private rememberPermission(session: Session, key: string, optionKind: string): void {
    if (!this.options.updateSettings) return;
    try {
      this.options.updateSettings((json) => {
        const current = typeof json.alwaysAllow === 'object' && json.alwaysAllow !== null ? (json.alwaysAllow as Record<string, string>) : {};
        json.alwaysAllow = { ...current, [key]: optionKind };
      });
    } catch (error) {
      session.record({ kind: 'notice', level: 'warning', message: `Your "always" choice could not be remembered: ${(error as Error).message}` });
    }
  }

  respondElicitation(sessionId: string, requestId: string, action: ElicitationAnswer['action'], content?: unknown): void {
    this.get(sessionId).answerElicitation(requestId, action, content);
  }

  async setConfig(sessionId: string, configId: string, value: string | boolean): Promise<void> {
    const session = this.get(sessionId);
    const connection = await this.connect(session);
    const configOptions = await connection.setConfigOption(session.acpSessionId!, configId, value);
    if (configOptions) session.record({ kind: 'config.options', configOptions });
  }

  async setMode(sessionId: string, modeId: string): Promise<void> {
    const session = this.get(sessionId);
    const connection = await this.connect(session);
    await connection.setMode(session.acpSessionId!, modeId);
    session.record({ kind: 'mode.changed', modeId });
  }

  /** Stops a terminal the agent runs, or one tool call, where the agent offers that. */
  async cancelAgentWork(sessionId: string, work: { terminalId: string } | { toolCallId: string }): Promise<void> {
    const session = this.get(sessionId);
    const connection = session.connection;
    if (!connection || !session.acpSessionId) throw new UserError('The agent is not connected, so there is nothing to stop.');
    await connection.cancelAgentWork(session.acpSessionId, work);
  }

  terminalInput(sessionId: string, terminalId: string, data: string): void {
    this.get(sessionId).terminals.get(terminalId)?.write(data);
  }

  terminalResize(sessionId: string, terminalId: string, cols: number, rows: number): void {
    this.get(sessionId).terminals.get(terminalId)?.resize(cols, rows);
  }

  // ---------------------------------------------------------------- sign-in

  /** Signs in with one of the agent's auth methods (see `signIn.ts`). */
  startAuth(sessionId: string, methodId: string, env?: Record<string, string>): Promise<{ terminalId?: string }> {
    return this.signIn.start(this.get(sessionId), methodId, env);
  }

  /** Signs out (`logout` when advertised) and forgets stored `env_var` values. */
  logout(agentId: string): Promise<{ loggedOut: boolean; forgotValues: boolean }> {
    return this.signIn.logout(agentId);
  }

  // ---------------------------------------------------------------- the agent's process

  /** The handlers for requests an agent connection makes, routed to that agent's sessions. */
  clientSide(agentId: string): ClientSide {
    return createClientSide(agentId, {
      routes: this.routes,
      settings: this.options.settings,
      sessions: () => this.sessions.values(),
      session: (sessionId) => this.sessions.get(sessionId),
      urlElicitations: this.urlElicitations,
      log: (message) => this.log(message),
      agentName: (id) => this.agentName(id),
    });
  }

  /** `stderrTail` is a bounded excerpt; `stderrLog` is the agent's own log, which has the rest. */
  onAgentExit(agentId: string, code: number | null, signal: string | null, stderrTail: string[], stderrLog?: string): void {
    for (const session of this.sessions.values()) {
      if (session.agentId !== agentId || (!session.connection && !session.connecting && !session.turn)) continue;
      session.detach({ kind: 'exited', code, signal, stderrTail, ...(stderrLog ? { stderrLog } : {}) });
    }
  }

  /**
   * Detaches every session from an agent process that is about to go away. Returns the
   * sessions to reconnect afterwards.
   */
  private stopAgentSessions(agentId: string, message: string): Session[] {
    const affected: Session[] = [];
    for (const session of this.sessions.values()) {
      if (session.agentId !== agentId) continue;
      const state = session.fold();
      // A session whose agent failed to start (error, no ACP session yet) is reconnected too,
      // so "Retry" after fixing settings.json starts it without restarting the app.
      const failedToStart = state.status === 'error' && !state.acpSessionId;
      const wasLive = Boolean(session.connection || session.turn || state.status === 'exited' || failedToStart);
      session.detach({ kind: 'stopped', message });
      if (wasLive && !session.fold().readonlyReason) affected.push(session);
    }
    return affected;
  }

  /**
   * The agent was uninstalled: its open sessions are detached (turn ended, requests cancelled),
   * told so in their transcript, and refuse prompts with that reason until it is installed again.
   */
  agentUninstalled(agentId: string): void {
    this.stopAgentSessions(agentId, 'The agent was uninstalled.');
    for (const session of this.sessions.values()) {
      if (session.agentId !== agentId || session.agentGone) continue;
      const name = session.fold().agentName || agentId;
      const reason = `${name} was uninstalled. Install it again to continue this session.`;
      session.setAgentGone(reason);
      session.record({ kind: 'notice', level: 'warning', message: reason });
    }
  }

  /** The agent was installed (again): its sessions may reconnect. */
  agentInstalled(agentId: string): void {
    for (const session of this.sessions.values()) if (session.agentId === agentId) session.setAgentGone(undefined);
  }

  /**
   * A remote agent's connection was lost (issue 26): every session on it lets go (a running turn
   * ends with `message` and a notice that it was cut); returns the sessions to reconnect.
   */
  detachForReconnect(agentId: string, message: string): Session[] {
    // A turn still running is cut now; one the lost stream already failed (its prompt's answer can
    // arrive before the exit is seen) was cut by the same loss and gets the same notice.
    const cut = [...this.sessions.values()].filter((session) => session.agentId === agentId && (session.turn || lastTurnFailedWith(session, message)));
    const affected = this.stopAgentSessions(agentId, message);
    for (const session of cut)
      session.record({
        kind: 'notice',
        level: 'warning',
        message:
          'This turn was cut by the lost connection. ACP v1 does not replay what the agent sent while disconnected, so part of its answer may be missing.',
      });
    return affected;
  }

  /** Restarts an agent process and reconnects its sessions (`session/resume` or `session/load` where offered). */
  async restartAgent(agentId: string): Promise<void> {
    const affected = this.stopAgentSessions(agentId, 'The agent was restarted.');
    await this.options.agents.restart(agentId);
    for (const session of affected) void this.connect(session).catch(logged(`Reconnecting session ${session.id} after a restart`, 'warn'));
  }

  // ---------------------------------------------------------------- the agent's session list

  /** `session/list` of an agent (only when it advertises `sessionCapabilities.list`). */
  async listSessions(agentId: string, cwd?: string, cursor?: string): Promise<{ sessions: AgentSessionInfo[]; nextCursor: string | null }> {
    const connection = await this.options.agents.ensureRunning(agentId);
    return connection.listSessions(cwd, cursor);
  }

  /** `session/delete` on the agent (only when it advertises `sessionCapabilities.delete`). */
  async deleteSession(agentId: string, acpSessionId: string): Promise<void> {
    const connection = await this.options.agents.ensureRunning(agentId);
    await connection.deleteSession(acpSessionId);
  }

  /**
   * `session/fork` of an agent's session (only when advertised), with the same cwd, MCP servers
   * and extra folders as any setup. Returns the new ACP session id and the agent's answer.
   */
  async forkAcp(agentId: string, parent: { acpSessionId: string; cwd: string; additionalDirectories?: string[] }): Promise<{ acpSessionId: string }> {
    const connection = await this.options.agents.ensureRunning(agentId);
    const result = await connection.forkSession({ ...setupParams(parent, connection, this.options.settings()), sessionId: parent.acpSessionId });
    return { acpSessionId: result.sessionId };
  }

  /** `session/fork` of an open session's ACP session (see `forkAcp`). */
  async forkSession(sessionId: string): Promise<{ acpSessionId: string }> {
    const session = this.get(sessionId);
    const state = session.fold();
    if (!session.acpSessionId) throw new UserError('This session never reached its agent, so there is nothing to fork.');
    return this.forkAcp(session.agentId, { acpSessionId: session.acpSessionId, cwd: state.cwd, additionalDirectories: state.additionalDirectories });
  }

  async disposeAll(): Promise<void> {
    this.compaction.dispose();
    for (const session of this.sessions.values()) session.detach({ kind: 'quit' });
    this.batcher.flush();
    for (const session of this.sessions.values()) session.log.close();
  }

  private agentName(agentId: string): string {
    return this.options.agents.find(agentId)?.name ?? agentId;
  }

  private log(message: string): void {
    logWarn(message);
  }
}

/** Whether the session's latest entry is the end of a turn that failed with `message`. */
function lastTurnFailedWith(session: Session, message: string): boolean {
  const last = session.fold().entries.at(-1);
  return last?.kind === 'stop' && last.error === message;
}
