import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { SessionSummary } from '../../src-shared/ipc/appState';
import type { ContentBlock, RawObject, SessionEvent, SessionEventBody } from '../../src-shared/session/events';
import { reduceSession } from '../../src-shared/session/reducer';
import { emptySession, type SessionState } from '../../src-shared/session/state';
import type { Settings } from '../../src-shared/settings';
import { type ClientSide, ELICITATION_MODES, isAuthRequired, ProtocolError } from '../acp/agentConnection';
import type { AgentLink } from '../acp/agentLink';
import type { AgentManager } from '../agents/agentManager';
import { legacyTerminalAuth } from '../agents/quirks/claudeCodeAcp';
import { isInsideRoots, readTextFile, writeTextFileAtomic } from '../fs/fileAccess';
import { EventLog, readEventLog } from '../store/eventLog';
import { readAgentEnv, writeAgentEnv } from '../store/secretStore';
import { Terminal } from '../terminals/terminalManager';
import { checkElicitationAnswer } from './elicitationForm';
import { EventBatcher } from './eventBatcher';
import { PendingRequests } from './pendingRequests';
import { permissionKey, REMEMBERED_KINDS, rememberedOption } from './permissionMemory';
import { refusePromptContent } from './promptContent';
import { toMcpServers } from './mcpServers';

type PermissionOutcome = { outcome: { outcome: 'cancelled' } | { outcome: 'selected'; optionId: string } };
type ElicitationAnswer = { action: 'accept' | 'decline' | 'cancel'; content?: RawObject };

interface Turn {
  turnId: string;
  abort: AbortController;
  cancelTimer?: ReturnType<typeof setTimeout>;
}

interface Session {
  id: string;
  agentId: string;
  /** The folded state; reading it first folds the events recorded since the last read. */
  state: SessionState;
  /** Events recorded but not folded yet (folded once per read or per flush, not per chunk). */
  unfolded: SessionEvent[];
  log: EventLog;
  seq: number;
  roots: string[];
  acpSessionId: string | null;
  /** The connection this session's ACP session lives on (null until connected or after exit). */
  connection: AgentLink | null;
  connecting: Promise<AgentLink> | null;
  turn: Turn | null;
  queue: { queueId: string; prompt: ContentBlock[] }[];
  /** What to retry after sign-in succeeds. */
  blocked: (() => void) | null;
  terminals: Map<string, Terminal>;
  /** True while `session/load` replays history we already have in the log. */
  replaying?: boolean;
  /** Told once that the agent does not take additional workspace folders. */
  toldNoAdditionalDirs?: boolean;
  /** Opened from the agent's `session/list` and not connected yet: its history has to come from the agent. */
  openedFromList?: boolean;
  /** Set when its agent was uninstalled: why a prompt is refused (cleared when the agent is installed again). */
  agentGone?: string;
}

export interface SessionManagerOptions {
  dataDir: string;
  agents: AgentManager;
  settings: () => Settings;
  emit: (sessionId: string, events: SessionEvent[]) => void;
  onChange: () => void;
  /** How long an agent may take to end a turn after `session/cancel` before we end it ourselves. */
  cancelGraceMs?: number;
  /** Changes settings.json (remembered permission choices); throws when the file is malformed. */
  updateSettings?: (mutate: (json: Record<string, unknown>) => void) => void;
}

/**
 * Sessions: their events (folded into state, appended to the log, batched to the window),
 * their turns, and the client side of the protocol for them.
 */
export class SessionManager {
  readonly sessions = new Map<string, Session>();
  private byAcpId = new Map<string, string>();
  private permissions = new PendingRequests<PermissionOutcome>();
  private elicitations = new PendingRequests<ElicitationAnswer>();
  /** URL elicitations by `elicitationId` → app session, for `elicitation/complete`. */
  private urlElicitations = new Map<string, string>();
  private batcher: EventBatcher;

  constructor(private readonly options: SessionManagerOptions) {
    this.batcher = new EventBatcher((sessionId, events) => {
      const session = this.sessions.get(sessionId);
      // Written before it is shown: what the person saw is on disk if we crash next.
      session?.log.append(events);
      if (session) void session.state; // fold the frame's events in one go
      this.options.emit(sessionId, events);
    });
  }

  logFile(sessionId: string): string {
    return join(this.options.dataDir, 'sessions', `${sessionId}.jsonl`);
  }

  // ---------------------------------------------------------------- events

  private record(session: Session, body: SessionEventBody): SessionEvent {
    const event = { ...body, sessionId: session.id, seq: ++session.seq, ts: Date.now() } as SessionEvent;
    // Folding per event copied the whole entry list on every streamed chunk; the fold waits for
    // the next read of `state` or the next flush (once per frame), so a batch costs one copy.
    session.unfolded.push(event);
    this.batcher.push(event);
    if (!isStreamingEvent(event)) this.options.onChange();
    return event;
  }

  /** Flushes pending batches now (before quitting, in tests). */
  flush(): void {
    this.batcher.flush();
  }

  summary(session: Session): SessionSummary {
    const s = session.state;
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
    if (!session) throw new ProtocolError(`No session "${sessionId}".`);
    return session;
  }

  /** Events after `afterSeq`, from the log plus what is not flushed yet. */
  async events(sessionId: string, afterSeq: number): Promise<SessionEvent[]> {
    const session = this.get(sessionId);
    this.batcher.flush();
    const { events } = await readEventLog(session.log.file);
    return events.filter((event) => event.seq > afterSeq);
  }

  // ---------------------------------------------------------------- lifecycle

  /**
   * `origin` (history, issue 6): a session opened from the agent's `session/list` starts bound
   * to that ACP session id, so its first connect loads it instead of calling `session/new`.
   */
  create(
    agentId: string,
    agentName: string,
    cwd: string,
    additionalDirectories: string[] = [],
    origin: { acpSessionId?: string; title?: string; forkedFrom?: string; continuedFrom?: string } = {},
  ): Session {
    const id = `s_${randomUUID()}`;
    const session = this.blank(id, agentId, [cwd, ...additionalDirectories]);
    this.sessions.set(id, session);
    session.acpSessionId = origin.acpSessionId ?? null;
    session.openedFromList = Boolean(origin.acpSessionId);
    this.record(session, { kind: 'session.created', agentId, agentName, cwd, ...origin });
    return session;
  }

  /** Records an app event on a live session (history: a rename). */
  recordEvent(sessionId: string, body: SessionEventBody): void {
    this.record(this.get(sessionId), body);
  }

  private blank(id: string, agentId: string, roots: string[]): Session {
    let folded = emptySession(id);
    return {
      id,
      agentId,
      unfolded: [],
      get state(): SessionState {
        if (this.unfolded.length) folded = reduceSession(folded, this.unfolded.splice(0));
        return folded;
      },
      set state(next: SessionState) {
        this.unfolded.length = 0;
        folded = next;
      },
      log: new EventLog(this.logFile(id)),
      seq: 0,
      roots,
      acpSessionId: null,
      connection: null,
      connecting: null,
      turn: null,
      queue: [],
      blocked: null,
      terminals: new Map(),
    };
  }

  /** Rebuilds a session from its log (app restart). It reconnects on the next prompt. */
  async restore(sessionId: string): Promise<Session | null> {
    const existing = this.sessions.get(sessionId);
    if (existing) return existing;
    let state: SessionState | undefined;
    // What the agent said it could do when this session last connected (issue 6: read-only restore).
    let capabilities: RawObject | null | undefined;
    const result = await readEventLog(this.logFile(sessionId), (batch) => {
      state = reduceSession(state, batch);
      for (const event of batch) if (event.kind === 'session.connected') capabilities = event.capabilities;
    });
    if (!state || !state.agentId) return null;
    const session = this.blank(sessionId, state.agentId, [state.cwd]);
    session.state = state;
    session.seq = state.lastSeq;
    session.acpSessionId = state.acpSessionId;
    this.sessions.set(sessionId, session);
    if (result.skipped > 0) {
      this.record(session, { kind: 'notice', level: 'warning', message: `${result.skipped} damaged line(s) in this session's log were skipped (usually the last line written before a crash).` });
    }
    // A turn that was running when the app stopped never got its end: close it honestly.
    if (state.currentTurnId) {
      this.record(session, { kind: 'turn.ended', turnId: state.currentTurnId, stopReason: 'interrupted', error: 'The app stopped while this turn was running.' });
    }
    for (const pending of state.permissions) this.record(session, { kind: 'permission.resolved', requestId: pending.requestId, optionId: null, reason: 'app restarted' });
    for (const pending of state.elicitations) this.record(session, { kind: 'elicitation.resolved', requestId: pending.requestId, action: 'cancel' });
    // An agent that can neither resume nor load cannot continue this conversation: say so now,
    // before the person types, instead of failing their next message.
    if (state.acpSessionId && !state.readonlyReason && capabilities && !canReconnect(capabilities)) {
      this.record(session, { kind: 'session.readonly', reason: readonlyReason(state.agentName) });
    }
    return session;
  }

  /** Connects the session to its agent: `session/new`, or `session/resume`/`session/load` for a restored one. */
  connect(session: Session): Promise<AgentLink> {
    if (session.connection) return Promise.resolve(session.connection);
    session.connecting ??= (async () => {
      try {
        const connection = await this.options.agents.ensureRunning(session.agentId);
        const previous = session.acpSessionId;
        // Additional roots are sent only to agents that advertise them (protocol-v1-session-setup);
        // file access by the agent to them is allowed either way: the person chose them.
        const additional = session.roots.slice(1);
        const sendDirs = additional.length > 0 && connection.supportsSession('additionalDirectories');
        if (additional.length > 0 && !sendDirs && !session.toldNoAdditionalDirs) {
          session.toldNoAdditionalDirs = true;
          this.record(session, {
            kind: 'notice',
            level: 'info',
            message: `${session.state.agentName} does not support additional workspace folders, so only ${session.state.cwd} is given to it as its workspace.`,
          });
        }
        const params = {
          cwd: session.state.cwd,
          mcpServers: toMcpServers(this.options.settings().mcpServers, connection.agentCapabilities),
          ...(sendDirs ? { additionalDirectories: additional } : {}),
        };
        let how: 'new' | 'load' | 'resume' = 'new';
        let result: RawObject;
        const canLoad = connection.agentCapabilities.loadSession === true;
        // A session opened from the agent's list has no transcript here yet: `session/load`
        // brings its history, `session/resume` would not (issue 6).
        const wantsHistory = canLoad && session.state.entries.length === 0;
        if (previous && connection.supportsSession('resume') && !wantsHistory) {
          how = 'resume';
          this.bindAcp(session, previous);
          result = await connection.request<RawObject>('session/resume', { ...params, sessionId: previous }, { timeoutMs: 60_000, owner: session.id });
        } else if (previous && canLoad) {
          how = 'load';
          this.bindAcp(session, previous);
          session.replaying = session.state.entries.length > 0;
          try {
            result = await connection.request<RawObject>('session/load', { ...params, sessionId: previous }, { timeoutMs: 120_000, owner: session.id });
          } finally {
            session.replaying = false;
          }
        } else if (previous) {
          // Neither resume nor load: the transcript stays, read-only, with "Start a new
          // session from here" (issue 6) rather than a new agent session that silently
          // forgets everything shown above.
          const reason = readonlyReason(session.state.agentName);
          this.record(session, { kind: 'session.readonly', reason });
          throw new ProtocolError(reason);
        } else {
          result = await connection.request<RawObject>('session/new', params, { timeoutMs: 60_000, owner: session.id });
          if (typeof result?.sessionId !== 'string' || !result.sessionId) throw new ProtocolError('The agent answered session/new without a session id.');
          this.bindAcp(session, result.sessionId);
        }
        session.connection = connection;
        result = (result ?? {}) as RawObject;
        this.record(session, {
          kind: 'session.connected',
          acpSessionId: session.acpSessionId!,
          how,
          configOptions: (result.configOptions as unknown[]) ?? null,
          modes: (result.modes as RawObject) ?? null,
          models: (result.models as RawObject) ?? null,
          capabilities: connection.agentCapabilities,
          agentInfo: (connection.initializeResult?.agentInfo as RawObject | undefined) ?? null,
        });
        // Opened from the agent's list with `session/resume` only: the agent keeps the
        // conversation but sends none of it, so the empty transcript needs a word (issue 6).
        if (session.openedFromList && how === 'resume' && session.state.entries.length === 0) {
          this.record(session, { kind: 'notice', level: 'info', message: 'The agent resumed this session but does not send its earlier messages.' });
        }
        session.openedFromList = false;
        return connection;
      } catch (error) {
        if (isAuthRequired(error)) {
          if (!session.state.authMethods) this.requireAuth(session, (error as Error).message);
        } else if (session.state.readonlyReason !== (error as Error).message) {
          // (A read-only session already says why, issue 6: no second copy as an error notice.)
          this.record(session, { kind: 'notice', level: 'error', message: (error as Error).message });
        }
        throw error;
      } finally {
        session.connecting = null;
        // Prompts typed while the session was still connecting go now (after sign-in, if needed).
        if (!session.state.authMethods) queueMicrotask(() => this.nextQueued(session));
      }
    })();
    return session.connecting;
  }

  private bindAcp(session: Session, acpSessionId: string): void {
    if (session.acpSessionId && session.acpSessionId !== acpSessionId) this.byAcpId.delete(session.acpSessionId);
    session.acpSessionId = acpSessionId;
    this.byAcpId.set(acpSessionId, session.id);
    const early = this.earlyUpdates.get(`${session.agentId}\n${acpSessionId}`);
    this.earlyUpdates.delete(`${session.agentId}\n${acpSessionId}`);
    for (const update of early?.updates ?? []) this.record(session, { kind: 'acp.update', update });
  }

  /** Updates for an ACP session id not bound yet: kept briefly (bounded) until `bindAcp`. */
  private earlyUpdates = new Map<string, { at: number; updates: RawObject[] }>();
  private holdEarlyUpdate(agentId: string, acpSessionId: string, update: RawObject): void {
    const now = Date.now();
    for (const [key, entry] of this.earlyUpdates) if (now - entry.at > 60_000) this.earlyUpdates.delete(key);
    const key = `${agentId}\n${acpSessionId}`;
    let entry = this.earlyUpdates.get(key);
    if (!entry) {
      if (this.earlyUpdates.size >= 20) return;
      this.earlyUpdates.set(key, (entry = { at: now, updates: [] }));
    }
    if (entry.updates.length < 500) entry.updates.push(update);
  }

  private requireAuth(session: Session, message?: string): void {
    const methods = this.options.agents.authMethods(session.agentId);
    this.record(session, {
      kind: 'auth.required',
      methods,
      message: methods.length
        ? `${session.state.agentName} needs you to sign in.`
        : `${session.state.agentName} says it needs authentication but offers no sign-in method: ${message ?? ''}`,
    });
  }

  // ---------------------------------------------------------------- turns

  prompt(sessionId: string, prompt: ContentBlock[]): { queued: boolean } {
    const session = this.get(sessionId);
    if (session.state.readonlyReason) throw new ProtocolError(`This session is read-only: ${session.state.readonlyReason}`);
    if (session.agentGone) throw new ProtocolError(session.agentGone);
    // Known capabilities refuse content up front; otherwise the turn checks after connecting.
    const capabilities = session.connection?.agentCapabilities ?? this.options.agents.capabilities(session.agentId);
    if (capabilities) {
      const refusal = refusePromptContent(prompt, (capabilities.promptCapabilities ?? {}) as RawObject, session.state.agentName);
      if (refusal) throw new ProtocolError(refusal);
    }
    if (session.turn || session.connecting) {
      const queueId = randomUUID();
      session.queue.push({ queueId, prompt });
      this.record(session, { kind: 'prompt.queued', queueId, prompt });
      return { queued: true };
    }
    this.startTurn(session, prompt);
    return { queued: false };
  }

  private startTurn(session: Session, prompt: ContentBlock[]): void {
    const turn: Turn = { turnId: randomUUID(), abort: new AbortController() };
    session.turn = turn;
    this.record(session, { kind: 'turn.started', turnId: turn.turnId, prompt });
    void this.runTurn(session, turn, prompt);
  }

  private async runTurn(session: Session, turn: Turn, prompt: ContentBlock[]): Promise<void> {
    let ended: { stopReason: string; error?: string; usage?: RawObject | null } | null = null;
    try {
      const connection = await this.connect(session);
      if (turn.abort.signal.aborted) throw new ProtocolError('cancelled before it started');
      const refusal = refusePromptContent(prompt, connection.promptCapabilities, session.state.agentName);
      if (refusal) throw new ProtocolError(refusal);
      const result = await connection.prompt({ sessionId: session.acpSessionId, prompt }, turn.abort.signal);
      ended = { stopReason: result.stopReason, usage: result.usage };
    } catch (error) {
      if (turn.abort.signal.aborted) {
        ended = { stopReason: 'cancelled' };
      } else if (isAuthRequired(error)) {
        if (!session.state.authMethods) this.requireAuth(session, (error as Error).message);
        session.blocked = () => this.startTurn(session, prompt);
        ended = { stopReason: 'auth_required', error: 'Sign in to continue; the message is sent again after you sign in.' };
      } else {
        ended = { stopReason: 'error', error: (error as Error).message };
      }
    } finally {
      if (turn.cancelTimer) clearTimeout(turn.cancelTimer);
      if (session.turn === turn) {
        session.turn = null;
        this.cancelPending(session, 'turn ended');
        this.record(session, { kind: 'turn.ended', turnId: turn.turnId, ...ended! });
        this.nextQueued(session);
      }
    }
  }

  private nextQueued(session: Session): void {
    if (session.turn || session.blocked) return;
    const next = session.queue.shift();
    if (!next) return;
    this.record(session, { kind: 'prompt.dequeued', queueId: next.queueId });
    this.startTurn(session, next.prompt);
  }

  /** Cancels the running turn: `session/cancel`, every pending request answered `cancelled`. */
  cancel(sessionId: string): void {
    const session = this.get(sessionId);
    const turn = session.turn;
    // The queue is what the person typed while waiting: cancel keeps it visible but stops it.
    for (const queued of session.queue.splice(0)) this.record(session, { kind: 'prompt.dequeued', queueId: queued.queueId });
    this.cancelPending(session, 'cancelled');
    if (!turn) return;
    if (session.connection && session.acpSessionId) {
      session.connection.notify('session/cancel', { sessionId: session.acpSessionId });
    }
    // The agent should answer the prompt with `cancelled`; if it never does, stop waiting.
    turn.cancelTimer ??= setTimeout(() => turn.abort.abort(), this.options.cancelGraceMs ?? 10_000);
    if (!session.connection) turn.abort.abort();
  }

  private cancelPending(session: Session, reason: string): void {
    for (const requestId of this.permissions.cancelSession(session.id)) {
      this.record(session, { kind: 'permission.resolved', requestId, optionId: null, reason });
    }
    for (const requestId of this.elicitations.cancelSession(session.id)) {
      this.record(session, { kind: 'elicitation.resolved', requestId, action: 'cancel' });
    }
  }

  close(sessionId: string): void {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    if (session.turn) this.cancel(sessionId);
    this.cancelPending(session, 'tab closed');
    // The log closes below, before the agent answers session/cancel: end the turn in the log
    // now (as cancelled), so it is not left open mid-turn and reopening it from history shows
    // a finished conversation; runTurn then sees another turn and records nothing more.
    const turn = session.turn;
    if (turn) {
      session.turn = null;
      if (turn.cancelTimer) clearTimeout(turn.cancelTimer);
      this.record(session, { kind: 'turn.ended', turnId: turn.turnId, stopReason: 'cancelled' });
    }
    for (const terminal of session.terminals.values()) terminal.kill();
    if (session.connection && session.acpSessionId && session.connection.supportsSession('close')) {
      void session.connection.request('session/close', { sessionId: session.acpSessionId }, { timeoutMs: 10_000 }).catch(() => {});
    }
    this.batcher.flush();
    session.log.close();
    if (session.acpSessionId) this.byAcpId.delete(session.acpSessionId);
    this.sessions.delete(sessionId);
  }

  // ---------------------------------------------------------------- answers from the person

  respondPermission(sessionId: string, requestId: string, optionId: string | null): void {
    const session = this.get(sessionId);
    const pending = session.state.permissions.find((p) => p.requestId === requestId);
    if (!pending || !this.permissions.has(requestId)) throw new ProtocolError('This permission request is no longer waiting.');
    if (optionId !== null && !pending.options.some((o) => o.optionId === optionId)) {
      throw new ProtocolError(`"${optionId}" is not one of this request's options.`);
    }
    this.record(session, { kind: 'permission.resolved', requestId, optionId });
    this.permissions.resolve(
      requestId,
      optionId === null ? { outcome: { outcome: 'cancelled' } } : { outcome: { outcome: 'selected', optionId } },
    );
    const option = pending.options.find((o) => o.optionId === optionId);
    if (option && REMEMBERED_KINDS.has(option.kind)) this.rememberPermission(session, permissionKey(session.agentId, this.toolKindOf(session, pending.toolCall)), option.kind);
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
      this.record(session, { kind: 'notice', level: 'warning', message: `Your "always" choice could not be remembered: ${(error as Error).message}` });
    }
  }

  respondElicitation(sessionId: string, requestId: string, action: ElicitationAnswer['action'], content?: RawObject): void {
    const session = this.get(sessionId);
    if (!this.elicitations.has(requestId) || this.elicitations.sessionOf(requestId) !== sessionId) {
      throw new ProtocolError('This question is no longer waiting for an answer.');
    }
    const pending = session.state.elicitations.find((e) => e.requestId === requestId);
    if (action === 'accept' && pending && String(pending.request.mode ?? 'form') === 'form') {
      const problems = checkElicitationAnswer(pending.request, content ?? {});
      if (problems.length) throw new ProtocolError(`The answer does not fit the question: ${problems.join(' ')}`);
    }
    this.record(session, { kind: 'elicitation.resolved', requestId, action, content: action === 'accept' ? content : undefined });
    this.elicitations.resolve(requestId, action === 'accept' ? { action, content: content ?? {} } : { action });
  }

  async setConfig(sessionId: string, configId: string, value: string | boolean): Promise<void> {
    const session = this.get(sessionId);
    const connection = await this.connect(session);
    const params: RawObject = { sessionId: session.acpSessionId, configId, value };
    // Boolean options carry the `type` discriminator (rfds-boolean-config-option).
    if (typeof value === 'boolean') params.type = 'boolean';
    const result = await connection.request<RawObject>('session/set_config_option', params, { timeoutMs: 30_000 });
    if (Array.isArray(result?.configOptions)) this.record(session, { kind: 'config.options', configOptions: result.configOptions });
  }

  async setMode(sessionId: string, modeId: string): Promise<void> {
    const session = this.get(sessionId);
    const connection = await this.connect(session);
    await connection.request('session/set_mode', { sessionId: session.acpSessionId, modeId }, { timeoutMs: 30_000 });
    this.record(session, { kind: 'mode.changed', modeId });
  }

  terminalInput(sessionId: string, terminalId: string, data: string): void {
    this.get(sessionId).terminals.get(terminalId)?.write(data);
  }

  terminalResize(sessionId: string, terminalId: string, cols: number, rows: number): void {
    this.get(sessionId).terminals.get(terminalId)?.resize(cols, rows);
  }

  // ---------------------------------------------------------------- sign-in

  /**
   * Signs in with one of the agent's auth methods (protocol-v1-authentication, rfds-auth-methods):
   * `agent` calls `authenticate`; `env_var` stores the values (secrets in the secret store),
   * restarts the agent with them and then calls `authenticate`; `terminal` runs the agent's own
   * command with the method's extra args and env in an interactive terminal of this session and
   * retries when it exits 0. What sign-in blocked (a connect, a prompt) is retried after success.
   */
  async startAuth(sessionId: string, methodId: string, env?: Record<string, string>): Promise<{ terminalId?: string }> {
    const session = this.get(sessionId);
    // Methods come from the last `initialize`; an agent that died since can still be signed in
    // with env values (the restart below) or a terminal.
    await this.options.agents.ensureRunning(session.agentId).catch(() => null);
    const method = this.options.agents.authMethods(session.agentId).find((candidate) => candidate.id === methodId);
    if (!method) throw new ProtocolError(`"${methodId}" is not one of ${session.state.agentName}'s sign-in methods.`);
    if (env && method.type !== 'env_var') throw new ProtocolError(`The sign-in method "${method.name}" takes no values.`);
    try {
      switch (method.type) {
        case 'agent': {
          const connection = await this.options.agents.ensureRunning(session.agentId);
          await connection.request('authenticate', { methodId }, { timeoutMs: 10 * 60_000, owner: session.id });
          this.authSucceeded(session, methodId);
          return {};
        }
        case 'env_var':
          await this.authWithEnv(session, method.raw, methodId, env ?? {});
          return {};
        case 'terminal':
          return { terminalId: this.authInTerminal(session, method.raw, methodId) };
        default:
          throw new ProtocolError(
            `${session.state.agentName} offers "${method.name}", a sign-in method of type "${method.type}" that this app does not support yet. Use another method.`,
          );
      }
    } catch (error) {
      this.record(session, { kind: 'notice', level: 'error', message: `Sign-in with "${method.name}" failed: ${(error as Error).message}` });
      throw error;
    }
  }

  /** `env_var`: check and keep the values, restart the agent with them, then `authenticate`. */
  private async authWithEnv(session: Session, raw: RawObject, methodId: string, values: Record<string, string>): Promise<void> {
    const vars = (Array.isArray(raw.vars) ? raw.vars : []).filter((v): v is RawObject => typeof v === 'object' && v !== null && typeof (v as RawObject).name === 'string');
    const names = new Set(vars.map((v) => String(v.name)));
    for (const name of Object.keys(values)) {
      if (!names.has(name)) throw new ProtocolError(`${name} is not one of the values this sign-in method asks for.`);
    }
    const secrets = this.options.agents.secrets;
    const stored = readAgentEnv(secrets, session.agentId);
    const launchEnv = this.options.agents.find(session.agentId)?.launch?.env ?? {};
    const next = { ...stored };
    const missing: string[] = [];
    for (const v of vars) {
      const name = String(v.name);
      const value = values[name];
      if (value !== undefined && value !== '') next[name] = value;
      else if (v.optional !== true && !next[name] && !launchEnv[name]) missing.push(typeof v.label === 'string' ? v.label : name);
    }
    if (missing.length) throw new ProtocolError(`Fill in ${missing.join(', ')}.`);
    writeAgentEnv(secrets, session.agentId, next);
    // The environment is read when the process starts: restart, then sign in on the new process.
    const affected = this.disconnectAgent(session.agentId, 'The agent was restarted to sign in.');
    const connection = await this.options.agents.restart(session.agentId);
    await connection.request('authenticate', { methodId }, { timeoutMs: 10 * 60_000, owner: session.id });
    this.authSucceeded(session, methodId, affected);
  }

  /** `terminal`: the agent's own command plus the method's args and env, in an interactive terminal. */
  private authInTerminal(session: Session, raw: RawObject, methodId: string): string {
    const agentLaunch = this.options.agents.launchSpec(session.agentId);
    if (!agentLaunch) throw new ProtocolError(`${session.state.agentName} is not installed.`);
    // The legacy `_meta["terminal-auth"]` form names its own command (agents/quirks/claudeCodeAcp.ts).
    const legacy = raw.type === 'terminal' ? null : legacyTerminalAuth(raw);
    const launch = legacy ? { ...agentLaunch, command: legacy.command, args: [] } : agentLaunch;
    const extraArgs = legacy ? legacy.args : Array.isArray(raw.args) ? raw.args.map(String) : [];
    const extraEnv: Record<string, string> = { ...legacy?.env };
    if (!legacy && typeof raw.env === 'object' && raw.env !== null) {
      for (const [name, value] of Object.entries(raw.env as RawObject)) if (typeof value === 'string') extraEnv[name] = value;
    }
    // One sign-in terminal at a time per session.
    for (const [id, terminal] of session.terminals) {
      if (!terminal.interactive || terminal.exit) continue;
      terminal.kill();
      session.terminals.delete(id);
    }
    const args = [...launch.args, ...extraArgs];
    const cwd = launch.cwd ?? session.state.cwd;
    let terminalId = '';
    const terminal = new Terminal({ command: launch.command, args, cwd, env: { ...launch.env, ...extraEnv }, interactive: true }, (data) =>
      this.record(session, { kind: 'terminal.output', terminalId, data }),
    );
    terminalId = terminal.id;
    session.terminals.set(terminalId, terminal);
    this.record(session, { kind: 'terminal.created', terminalId, command: launch.command, args, cwd, interactive: true });
    void terminal.exited.then((exit) => {
      this.record(session, { kind: 'terminal.exited', terminalId, ...exit });
      // Closed session, or replaced by a newer sign-in terminal: nothing more to say.
      if (!this.sessions.has(session.id) || session.terminals.get(terminalId) !== terminal) return;
      if (exit.exitCode === 0) {
        this.authSucceeded(session, methodId);
      } else {
        const how = exit.signal ? `was stopped (${exit.signal})` : `ended with code ${exit.exitCode}`;
        this.record(session, { kind: 'notice', level: 'warning', message: `The sign-in in the terminal ${how}. Try again, or use another method.` });
      }
    });
    return terminalId;
  }

  /** Sign-in worked: every session of the agent that waited for it carries on. */
  authSucceeded(session: Session, methodId: string, reconnect: Session[] = []): void {
    const waiting = [...this.sessions.values()].filter((other) => other.agentId === session.agentId && (other === session || other.state.authMethods || reconnect.includes(other)));
    for (const other of waiting) {
      if (other.state.authMethods || other === session) this.record(other, { kind: 'auth.completed', methodId });
      const retry = other.blocked;
      other.blocked = null;
      if (retry) retry();
      else if (!other.connection && !other.connecting && !other.state.readonlyReason) void this.connect(other).catch(() => {});
      this.nextQueued(other);
    }
  }

  /** Signs out (`logout` when advertised) and forgets stored `env_var` values. */
  async logout(agentId: string): Promise<{ loggedOut: boolean; forgotValues: boolean }> {
    const connection = await this.options.agents.ensureRunning(agentId);
    let loggedOut = false;
    if (connection.supportsLogout) {
      await connection.logout();
      loggedOut = true;
    }
    const secrets = this.options.agents.secrets;
    const forgotValues = Object.keys(readAgentEnv(secrets, agentId)).length > 0;
    if (forgotValues) writeAgentEnv(secrets, agentId, {});
    if (!loggedOut && !forgotValues) {
      throw new ProtocolError(`${this.options.agents.find(agentId)?.name ?? 'This agent'} does not support signing out (no auth.logout capability), and no sign-in values are stored for it.`);
    }
    if (forgotValues) await this.restartAgent(agentId);
    for (const session of this.sessions.values()) {
      if (session.agentId === agentId) this.record(session, { kind: 'notice', level: 'info', message: 'Signed out. The agent may ask you to sign in again.' });
    }
    return { loggedOut, forgotValues };
  }

  // ---------------------------------------------------------------- agent restart, session list/delete/fork

  /**
   * Detaches every session from an agent process that is about to go away: pending requests
   * cancelled, a running turn ended, terminals killed. Returns the sessions to reconnect.
   */
  private disconnectAgent(agentId: string, reason: string): Session[] {
    const affected: Session[] = [];
    for (const session of this.sessions.values()) {
      if (session.agentId !== agentId) continue;
      // A session whose agent failed to start (error, no ACP session yet) is reconnected too,
      // so "Retry" after fixing settings.json starts it without restarting the app.
      const failedToStart = session.state.status === 'error' && !session.state.acpSessionId;
      const wasLive = Boolean(session.connection || session.turn || session.state.status === 'exited' || failedToStart);
      session.connection = null;
      this.cancelPending(session, reason);
      for (const terminal of session.terminals.values()) terminal.kill();
      const turn = session.turn;
      session.turn = null;
      if (turn) {
        if (turn.cancelTimer) clearTimeout(turn.cancelTimer);
        turn.abort.abort();
        this.record(session, { kind: 'turn.ended', turnId: turn.turnId, stopReason: 'error', error: reason });
      }
      if (wasLive && !session.state.readonlyReason) affected.push(session);
    }
    return affected;
  }

  /**
   * The agent was uninstalled: its open sessions are detached (turn ended, requests cancelled),
   * told so in their transcript, and refuse prompts with that reason until it is installed again.
   */
  agentUninstalled(agentId: string): void {
    this.disconnectAgent(agentId, 'The agent was uninstalled.');
    for (const session of this.sessions.values()) {
      if (session.agentId !== agentId || session.agentGone) continue;
      const name = session.state.agentName || agentId;
      session.agentGone = `${name} was uninstalled. Install it again to continue this session.`;
      this.record(session, { kind: 'notice', level: 'warning', message: session.agentGone });
    }
  }

  /** The agent was installed (again): its sessions may reconnect. */
  agentInstalled(agentId: string): void {
    for (const session of this.sessions.values()) if (session.agentId === agentId) session.agentGone = undefined;
  }

  /** Restarts an agent process and reconnects its sessions (`session/resume` or `session/load` where offered). */
  async restartAgent(agentId: string): Promise<void> {
    const affected = this.disconnectAgent(agentId, 'The agent was restarted.');
    await this.options.agents.restart(agentId);
    for (const session of affected) void this.connect(session).catch(() => {});
  }

  /** `session/list` of an agent (only when it advertises `sessionCapabilities.list`). */
  async listSessions(agentId: string, cwd?: string, cursor?: string): Promise<{ sessions: RawObject[]; nextCursor: string | null }> {
    const connection = await this.options.agents.ensureRunning(agentId);
    return connection.listSessions(cwd, cursor);
  }

  /** `session/delete` on the agent (only when it advertises `sessionCapabilities.delete`). */
  async deleteSession(agentId: string, acpSessionId: string): Promise<void> {
    const connection = await this.options.agents.ensureRunning(agentId);
    await connection.deleteSession(acpSessionId);
  }

  /**
   * `session/fork` of a session's ACP session (only when advertised). Returns the new ACP
   * session id and the agent's answer; the caller creates the app session bound to it.
   */
  async forkSession(sessionId: string): Promise<{ acpSessionId: string; result: RawObject }> {
    const session = this.get(sessionId);
    if (!session.acpSessionId) throw new ProtocolError('This session never reached its agent, so there is nothing to fork.');
    const connection = await this.options.agents.ensureRunning(session.agentId);
    const additional = session.roots.slice(1);
    const result = await connection.forkSession({
      sessionId: session.acpSessionId,
      cwd: session.state.cwd,
      mcpServers: toMcpServers(this.options.settings().mcpServers, connection.agentCapabilities),
      ...(additional.length && connection.supportsSession('additionalDirectories') ? { additionalDirectories: additional } : {}),
    });
    if (typeof result?.sessionId !== 'string' || !result.sessionId) throw new ProtocolError('The agent answered session/fork without a session id.');
    return { acpSessionId: result.sessionId, result };
  }

  // ---------------------------------------------------------------- agent exit

  onAgentExit(agentId: string, code: number | null, signal: string | null, stderrTail: string[]): void {
    for (const session of this.sessions.values()) {
      if (session.agentId !== agentId || (!session.connection && !session.connecting && !session.turn)) continue;
      session.connection = null;
      this.cancelPending(session, 'agent exited');
      for (const terminal of session.terminals.values()) terminal.kill();
      const turn = session.turn;
      session.turn = null;
      if (turn) {
        if (turn.cancelTimer) clearTimeout(turn.cancelTimer);
        this.record(session, { kind: 'turn.ended', turnId: turn.turnId, stopReason: 'error', error: 'The agent exited during this turn.' });
      }
      this.record(session, { kind: 'agent.exited', code, signal, stderrTail });
    }
  }

  // ---------------------------------------------------------------- client side of the protocol

  /** The handlers for requests an agent process makes; routed to sessions by ACP session id. */
  clientSide(agentId: string): ClientSide {
    const sessionFor = (acpSessionId: unknown): Session => {
      const id = this.byAcpId.get(String(acpSessionId));
      const session = id ? this.sessions.get(id) : undefined;
      if (!session || session.agentId !== agentId) throw new ProtocolError(`Unknown session ${String(acpSessionId)}`, -32602);
      return session;
    };
    return {
      onSessionUpdate: (acpSessionId, update) => {
        const id = this.byAcpId.get(acpSessionId);
        const session = id ? this.sessions.get(id) : undefined;
        if (!session) {
          // Agents may send updates (commands, modes) before their `session/new` answer arrives.
          this.holdEarlyUpdate(agentId, acpSessionId, update);
          return;
        }
        // History replayed by `session/load` is already in our log: keep the log as the truth.
        if (session.replaying) return;
        this.record(session, { kind: 'acp.update', update });
      },
      onGarbage: (line) => {
        // Shown where someone is looking: a running turn, else a session still connecting.
        const sessions = [...this.sessions.values()].filter((session) => session.agentId === agentId);
        const target = sessions.find((session) => session.turn) ?? sessions.find((session) => session.connecting);
        if (target) {
          this.record(target, { kind: 'notice', level: 'warning', message: `The agent printed something that is not ACP on stdout (ignored): ${line}` });
        }
      },
      onRejectedRequest: (method, raw, error) => {
        const id = this.byAcpId.get(String(raw.sessionId));
        const session =
          (id ? this.sessions.get(id) : undefined) ?? [...this.sessions.values()].find((candidate) => candidate.agentId === agentId && candidate.turn);
        if (!session) return;
        this.record(session, {
          kind: 'acp.rejected',
          method,
          params: raw,
          error,
          note: `The agent sent a ${method} request this app could not accept (${String(error.message ?? 'invalid')}); it was answered with an error`,
        });
      },
      requestPermission: async (raw, signal) => {
        const session = sessionFor(raw.sessionId);
        const requestId = randomUUID();
        const toolCall = (raw.toolCall && typeof raw.toolCall === 'object' ? raw.toolCall : {}) as RawObject;
        const options = (Array.isArray(raw.options) ? raw.options : [])
          .filter((option): option is RawObject => typeof option === 'object' && option !== null)
          .map((option) => ({
            optionId: String(option.optionId),
            name: String(option.name ?? option.optionId),
            kind: String(option.kind ?? 'allow_once'),
            ...(option._meta !== undefined ? { _meta: option._meta } : {}),
          }));
        const request = { kind: 'permission.requested' as const, requestId, toolCall, options, ...(raw._meta !== undefined ? { _meta: raw._meta } : {}) };
        // "Always" answered before for this agent and tool kind: answer the same way, visibly.
        const remembered = rememberedOption(this.options.settings().alwaysAllow, agentId, this.toolKindOf(session, toolCall), options);
        if (remembered) {
          this.record(session, request);
          this.record(session, { kind: 'permission.resolved', requestId, optionId: remembered.optionId, reason: 'remembered' });
          return { outcome: { outcome: 'selected', optionId: remembered.optionId } };
        }
        const answer = this.permissions.add(requestId, session.id, { outcome: { outcome: 'cancelled' } });
        this.record(session, request);
        signal.addEventListener('abort', () => {
          if (this.permissions.resolve(requestId, { outcome: { outcome: 'cancelled' } })) {
            this.record(session, { kind: 'permission.resolved', requestId, optionId: null, reason: 'the agent withdrew the request' });
          }
        });
        return (await answer) as never;
      },
      readTextFile: async (params) => {
        const session = sessionFor(params.sessionId);
        await this.checkOutside(session, params.path, 'read');
        try {
          return { content: readTextFile(params.path, params.line, params.limit) };
        } catch (error) {
          throw new ProtocolError(`Cannot read ${params.path}: ${(error as Error).message}`, -32002);
        }
      },
      writeTextFile: async (params) => {
        const session = sessionFor(params.sessionId);
        await this.checkOutside(session, params.path, 'write');
        try {
          const { oldText } = writeTextFileAtomic(params.path, params.content);
          this.record(session, { kind: 'file.written', path: params.path, oldText, newText: params.content });
          return {};
        } catch (error) {
          throw new ProtocolError(`Cannot write ${params.path}: ${(error as Error).message}`, -32603);
        }
      },
      createTerminal: async (params) => {
        const session = sessionFor(params.sessionId);
        const cwd = params.cwd ?? session.state.cwd;
        const env: Record<string, string> = {};
        for (const variable of params.env ?? []) env[variable.name] = variable.value;
        let terminalId = '';
        const terminal = new Terminal(
          { command: params.command, args: params.args ?? [], cwd, env, outputByteLimit: params.outputByteLimit ?? null },
          (data) => this.record(session, { kind: 'terminal.output', terminalId, data }),
        );
        terminalId = terminal.id;
        session.terminals.set(terminal.id, terminal);
        this.record(session, { kind: 'terminal.created', terminalId, command: params.command, args: params.args ?? [], cwd });
        void terminal.exited.then((exit) => this.record(session, { kind: 'terminal.exited', terminalId, ...exit }));
        return { terminalId };
      },
      terminalOutput: async (params) => {
        const terminal = this.terminal(sessionFor(params.sessionId), params.terminalId);
        return {
          output: terminal.output.text(),
          truncated: terminal.output.truncated,
          exitStatus: terminal.exit ? { exitCode: terminal.exit.exitCode, signal: terminal.exit.signal } : null,
        };
      },
      waitForTerminalExit: async (params) => {
        const exit = await this.terminal(sessionFor(params.sessionId), params.terminalId).exited;
        return { exitCode: exit.exitCode, signal: exit.signal };
      },
      killTerminal: async (params) => {
        this.terminal(sessionFor(params.sessionId), params.terminalId).kill();
        return {};
      },
      releaseTerminal: async (params) => {
        const session = sessionFor(params.sessionId);
        const terminal = this.terminal(session, params.terminalId);
        terminal.kill();
        session.terminals.delete(params.terminalId);
        this.record(session, { kind: 'terminal.released', terminalId: params.terminalId });
        return {};
      },
      createElicitation: async (raw, signal, scope) => {
        // Session-scoped by its own `sessionId`; request-scoped by the request it names.
        let session: Session | undefined;
        if (raw.sessionId !== undefined && raw.sessionId !== null) session = sessionFor(raw.sessionId);
        else if (scope.requestSessionId) session = sessionFor(scope.requestSessionId);
        else if (scope.owner) session = this.sessions.get(scope.owner);
        if (!session) throw new ProtocolError('This elicitation names no session or request of this client.', -32602);
        const mode = String(raw.mode ?? 'form');
        if (!ELICITATION_MODES.has(mode)) {
          // rfds-elicitation: a mode the client did not declare is answered -32602, never shown as a form.
          const error = { code: -32602, message: `Elicitation mode "${mode}" is not supported by this client.` };
          this.record(session, { kind: 'acp.rejected', method: 'elicitation/create', params: raw, error, note: `The agent asked a question in a way this app cannot show (mode "${mode}")` });
          throw new ProtocolError(error.message, -32602);
        }
        const requestId = randomUUID();
        const answer = this.elicitations.add(requestId, session.id, { action: 'cancel' });
        if (mode === 'url' && typeof raw.elicitationId === 'string') this.urlElicitations.set(raw.elicitationId, session.id);
        this.record(session, { kind: 'elicitation.requested', requestId, request: raw });
        const owner = session;
        signal.addEventListener('abort', () => {
          if (this.elicitations.resolve(requestId, { action: 'cancel' })) {
            this.record(owner, { kind: 'elicitation.resolved', requestId, action: 'cancel' });
          }
        });
        const result = await answer;
        if (result.action !== 'accept' && typeof raw.elicitationId === 'string') this.urlElicitations.delete(raw.elicitationId);
        // URL mode: `accept` is the person's consent; there is no content (rfds-elicitation).
        if (result.action === 'accept') return mode === 'url' ? { action: 'accept' } : { action: 'accept', content: result.content ?? {} };
        return { action: result.action };
      },
      completeElicitation: (params) => {
        // Only the session that started this URL elicitation; unknown or finished ids are ignored.
        const elicitationId = String(params.elicitationId ?? '');
        const sessionId = this.urlElicitations.get(elicitationId);
        const session = sessionId ? this.sessions.get(sessionId) : undefined;
        if (!session || session.agentId !== agentId) return;
        this.urlElicitations.delete(elicitationId);
        this.record(session, { kind: 'elicitation.completed', elicitationId });
      },
    };
  }

  /** A tool call's kind: from the request, else from the call as announced, else `other`. */
  private toolKindOf(session: Session, toolCall: RawObject): string {
    if (typeof toolCall.kind === 'string' && toolCall.kind) return toolCall.kind;
    const index = session.state.toolIndex[String(toolCall.toolCallId)];
    const entry = index === undefined ? undefined : session.state.entries[index];
    return entry?.kind === 'tool' ? entry.toolKind : 'other';
  }

  private terminal(session: Session, terminalId: string): Terminal {
    const terminal = session.terminals.get(terminalId);
    if (!terminal) throw new ProtocolError(`Unknown terminal ${terminalId}`, -32002);
    return terminal;
  }

  /** Reads and writes outside the workspace ask the person first (or are refused, per setting). */
  private async checkOutside(session: Session, path: string, what: 'read' | 'write'): Promise<void> {
    if (isInsideRoots(path, session.roots)) return;
    if (this.options.settings().outsideWorkspace === 'deny') {
      throw new ProtocolError(`${path} is outside the session's workspace; the app is set to refuse such access.`, -32602);
    }
    const requestId = randomUUID();
    const answer = this.permissions.add(requestId, session.id, { outcome: { outcome: 'cancelled' } });
    this.record(session, {
      kind: 'permission.requested',
      requestId,
      toolCall: {
        toolCallId: `outside-${requestId}`,
        title: `${what === 'read' ? 'Read' : 'Write'} ${path} (outside the workspace)`,
        kind: what === 'read' ? 'read' : 'edit',
        locations: [{ path }],
      },
      options: [
        { optionId: 'allow', name: `Allow this ${what}`, kind: 'allow_once' },
        { optionId: 'reject', name: 'Refuse', kind: 'reject_once' },
      ],
    });
    const result = await answer;
    if (result.outcome.outcome !== 'selected' || result.outcome.optionId !== 'allow') {
      throw new ProtocolError(`The person refused access to ${path}, which is outside the workspace.`, -32602);
    }
  }

  async disposeAll(): Promise<void> {
    for (const session of this.sessions.values()) {
      this.cancelPending(session, 'app quit');
      for (const terminal of session.terminals.values()) terminal.kill();
    }
    this.batcher.flush();
    for (const session of this.sessions.values()) session.log.close();
  }
}

/** Whether an agent's capabilities let a restored session reconnect (`session/resume` or `session/load`). */
function canReconnect(capabilities: RawObject): boolean {
  const session = (capabilities.sessionCapabilities ?? {}) as RawObject;
  return capabilities.loadSession === true || (session.resume !== undefined && session.resume !== null && session.resume !== false);
}

function readonlyReason(agentName: string): string {
  return `${agentName || 'This agent'} cannot resume or load earlier sessions, so this conversation cannot go on here. Start a new session from here to continue with the same agent and folder.`;
}

/**
 * Events that stream many times a second and cannot change what the sidebar and tabs show
 * (status, title, pending requests): they do not trigger an app-state push each.
 */
function isStreamingEvent(event: SessionEvent): boolean {
  if (event.kind === 'terminal.output') return true;
  if (event.kind !== 'acp.update') return false;
  const kind = (event.update as { sessionUpdate?: unknown }).sessionUpdate;
  return kind === 'agent_message_chunk' || kind === 'agent_thought_chunk' || kind === 'user_message_chunk' || kind === 'tool_call_update' || kind === 'plan' || kind === 'usage_update';
}
