import { randomUUID } from 'node:crypto';
import type { ContentBlock, PermissionOption, SessionEvent, SessionEventBody, ToolCallFields } from '../../src-shared/session/events';
import { reduceSession } from '../../src-shared/session/reducer';
import { emptySession, type SessionState } from '../../src-shared/session/state';
import { isAuthRequired } from '../acp/clientSide';
import type { AgentLink } from '../acp/agentLink';
import { EventLog, saveNotice } from '../store/eventLog';
import type { Terminal } from '../terminals/terminalManager';
import { checkElicitationAnswer } from './elicitationForm';
import { PendingRequests } from './pendingRequests';
import { refusePromptContent } from './promptContent';
import { encodePrompt } from '../acp/decode/content';
import { logged } from '../log/mainLog';
import { decodeCapabilities, decodeElicitationContent } from '../acp/decode/controls';
import type { AgentCapabilities, ElicitationContent, TurnUsage } from '../../src-shared/session/controls';
import { AUTH_RETRY_NOTE } from '../../src-shared/acp/error';
import { AcpErrorCode, UserError } from '../errors/errors';

export type PermissionOutcome = { outcome: { outcome: 'cancelled' } | { outcome: 'selected'; optionId: string } };
export type ElicitationAnswer = { action: 'accept' | 'decline' | 'cancel'; content?: ElicitationContent };

interface Turn {
  turnId: string;
  abort: AbortController;
  cancelTimer?: ReturnType<typeof setTimeout>;
  /** The person pressed Stop (`session/cancel` sent). */
  cancelRequested?: boolean;
}

/**
 * Why a session lets go of its agent: the tab closed (the turn ends `cancelled`, the agent is
 * told `session/close`), the agent process exited on its own, or the app stopped it (restart,
 * uninstall, sign-in with new values).
 */
export type DetachReason =
  | { kind: 'closed' }
  /** The app quits: the log keeps the turn open, and the next start closes it as interrupted. */
  | { kind: 'quit' }
  | { kind: 'exited'; code: number | null; signal: string | null; stderrTail: string[]; stderrLog?: string }
  | { kind: 'stopped'; message: string };

/** The reason pending requests are cancelled with, per kind of detach. */
const DETACH_WHY = { closed: 'tab closed', quit: 'app quit', exited: 'agent exited' } as const;

/** What a session needs from the layer that owns it. */
export interface SessionHost {
  /** Takes a recorded event to the log and the window (batched per frame). */
  push(event: SessionEvent): void;
  /** Something the sidebar or tabs show may have changed. */
  changed(): void;
  /** Connects the session to its agent (`session/new`, `session/load` or `session/resume`). */
  connect(session: Session): Promise<AgentLink>;
  /** What the agent said it can do at its last `initialize` (survives the process). */
  capabilities(agentId: string): AgentCapabilities | null;
  /** Records `auth.required` with the agent's sign-in methods. */
  requireAuth(session: Session, message?: string): void;
  /** How long an agent may take to end a turn after `session/cancel` before we end it ourselves. */
  cancelGraceMs: number;
  /**
   * Checkpoints (issue 24): awaited before the prompt goes out (the snapshot must precede any
   * write of the turn); the blocks it returns go after the prompt (a note about restored files;
   * after, so a slash command that opens the prompt stays first).
   */
  beforeTurn?(session: Session, turnId: string): Promise<ContentBlock[]>;
  /** Checkpoints: the turn ended (called before the next queued prompt starts, so snapshots stay in order). */
  afterTurn?(session: Session, turnId: string): void;
}

/**
 * One chat session (Zed's `AcpThread`): its events, recorded in order and folded into its state,
 * its turn and queue, and what it holds of its agent while connected. Every fact that must
 * survive a restart is an event in its log (workspace folders, ACP session id, the queue);
 * what lives only here (the running turn, terminals, pending answers) ends with `detach`.
 */
export class Session {
  readonly log: EventLog;
  private seq = 0;
  private boundTo: string | null = null;
  private link: AgentLink | null = null;
  private pendingConnect: Promise<AgentLink> | null = null;
  private running: Turn | null = null;
  /** What to retry after sign-in succeeds. */
  private retryAfterSignIn: (() => void) | null = null;
  readonly terminals = new Map<string, Terminal>();
  readonly permissions = new PendingRequests<PermissionOutcome>();
  readonly elicitations = new PendingRequests<ElicitationAnswer>();
  private replayingHistory = false;
  private told = new Set<string>();
  private fromAgentList = false;
  private goneReason: string | undefined;
  private folded: SessionState;
  private unfolded: SessionEvent[] = [];

  constructor(
    readonly id: string,
    readonly agentId: string,
    logFile: string,
    private readonly host: SessionHost,
    initial?: SessionState,
  ) {
    // A full disk: the session says it is not being saved (and again when it is), and stays up.
    this.log = new EventLog(logFile, (health) => this.record(saveNotice(health)));
    this.folded = initial ?? emptySession(id);
    this.seq = this.folded.lastSeq;
    this.boundTo = this.folded.acpSessionId;
  }

  // ---------------------------------------------------------------- what others read, and the flows that change it

  /** The ACP session id this session is bound to (routes bind it; a new session gets it from `session/new`). */
  get acpSessionId(): string | null {
    return this.boundTo;
  }

  /** Bound to an ACP session id (`AcpRoutes.bind`), or back to the one its log says. */
  bindAcpSession(acpSessionId: string | null = this.fold().acpSessionId): void {
    this.boundTo = acpSessionId;
  }

  /** The agent connection this session's ACP session lives on (null until connected or after detach). */
  get connection(): AgentLink | null {
    return this.link;
  }

  /** Set up on the agent: from now on requests go through `connection`. */
  attach(connection: AgentLink): void {
    this.link = connection;
  }

  /** The connect in progress (null: none). */
  get connecting(): Promise<AgentLink> | null {
    return this.pendingConnect;
  }

  /**
   * Runs `connect` unless a connect is already under way (concurrent callers share one attempt);
   * when it settles, prompts typed meanwhile go (after sign-in, if that is what it asked for).
   */
  connectOnce(connect: () => Promise<AgentLink>): Promise<AgentLink> {
    this.pendingConnect ??= (async () => {
      try {
        return await connect();
      } finally {
        this.pendingConnect = null;
        if (!this.fold().authMethods) queueMicrotask(() => this.nextQueued());
      }
    })();
    return this.pendingConnect;
  }

  /** The turn running now (null: none). */
  get turn(): Readonly<Turn> | null {
    return this.running;
  }

  /** Takes what sign-in blocked (a prompt to send again), once. */
  takeRetryAfterSignIn(): (() => void) | null {
    const retry = this.retryAfterSignIn;
    this.retryAfterSignIn = null;
    return retry;
  }

  /** True while `session/load` replays history the log already has (its updates are not recorded again). */
  get replaying(): boolean {
    return this.replayingHistory;
  }

  async whileReplaying<T>(replaying: boolean, run: () => Promise<T>): Promise<T> {
    this.replayingHistory = replaying;
    try {
      return await run();
    } finally {
      this.replayingHistory = false;
    }
  }

  /** True the first time for `what`: a notice that is given once per session. */
  firstTime(what: string): boolean {
    if (this.told.has(what)) return false;
    this.told.add(what);
    return true;
  }

  /** Opened from the agent's `session/list` and not connected yet: its history has to come from the agent. */
  get openedFromList(): boolean {
    return this.fromAgentList;
  }

  markOpenedFromList(opened: boolean): void {
    this.fromAgentList = opened;
  }

  /** Why a prompt is refused since its agent was uninstalled (undefined: installed). */
  get agentGone(): string | undefined {
    return this.goneReason;
  }

  /** Its agent was uninstalled (a reason), or installed again (undefined). */
  setAgentGone(reason: string | undefined): void {
    this.goneReason = reason;
  }

  // ---------------------------------------------------------------- events

  /** Records an event: numbered, queued for the log and the window, folded on the next `fold()`. */
  record(body: SessionEventBody, ts = Date.now()): SessionEvent {
    // Object.assign, not a spread: on Node 20 the spread with three more fields cost about 2.5 µs
    // an event, a quarter of the host's own code at wire speed (issue 11's host profile).
    const event = Object.assign({}, body, { sessionId: this.id, seq: ++this.seq, ts }) as SessionEvent;
    // Folding per event copied the whole entry list on every streamed chunk; the fold waits for
    // the next `fold()` (once per flushed frame, or a read), so a batch costs one copy.
    this.unfolded.push(event);
    this.host.push(event);
    if (!isStreamingEvent(event)) this.host.changed();
    return event;
  }

  /** Folds the events recorded since the last fold and returns the current state. */
  fold(): SessionState {
    if (this.unfolded.length) this.folded = reduceSession(this.folded, this.unfolded.splice(0));
    return this.folded;
  }

  /** The state as of the last `fold()` (current after every flushed frame). */
  get state(): SessionState {
    return this.folded;
  }

  /** The workspace folders: the main one, then the extra ones (all from `session.created`). */
  get roots(): string[] {
    const state = this.fold();
    return [state.cwd, ...(state.additionalDirectories ?? [])];
  }

  // ---------------------------------------------------------------- turns and queue

  /** Sends a prompt, or queues it (visibly, in the log) behind a running turn or a connect. */
  prompt(prompt: ContentBlock[]): { queued: boolean } {
    const state = this.fold();
    if (state.readonlyReason) throw new UserError(`This session is read-only: ${state.readonlyReason}`);
    if (this.agentGone) throw new UserError(this.agentGone);
    // Known capabilities refuse content up front; otherwise the turn checks after connecting.
    const capabilities = this.connection ? decodeCapabilities(this.connection.agentCapabilities) : this.host.capabilities(this.agentId);
    if (capabilities) {
      const refusal = refusePromptContent(prompt, capabilities.promptCapabilities, state.agentName);
      if (refusal) throw new UserError(refusal);
    }
    // Prompts still queued from before a restart go first: the queue is in the log.
    if (this.turn || this.connecting || state.queue.length > 0) {
      this.record({ kind: 'prompt.queued', queueId: randomUUID(), prompt });
      this.nextQueued();
      return { queued: true };
    }
    this.startTurn(prompt);
    return { queued: false };
  }

  /** Starts the next queued prompt when nothing runs and nothing blocks. */
  nextQueued(): void {
    if (this.running || this.retryAfterSignIn || this.pendingConnect) return;
    const next = this.fold().queue[0];
    if (!next) return;
    this.record({ kind: 'prompt.dequeued', queueId: next.queueId });
    this.startTurn(next.prompt);
  }

  private startTurn(prompt: ContentBlock[]): void {
    const turn: Turn = { turnId: randomUUID(), abort: new AbortController() };
    this.running = turn;
    this.record({ kind: 'turn.started', turnId: turn.turnId, prompt });
    void this.runTurn(turn, prompt);
  }

  private async runTurn(turn: Turn, prompt: ContentBlock[]): Promise<void> {
    let ended: { stopReason: string; error?: string; usage?: TurnUsage | null } | null = null;
    /** The agent's own report of the turn's end is already in the log. */
    let endedInLog = false;
    try {
      const addendum = this.host.beforeTurn ? await this.host.beforeTurn(this, turn.turnId) : [];
      const connection = await this.host.connect(this);
      if (turn.abort.signal.aborted) throw new UserError('cancelled before it started');
      const refusal = refusePromptContent(prompt, decodeCapabilities(connection.agentCapabilities).promptCapabilities, this.fold().agentName);
      if (refusal) throw new UserError(refusal);
      const result = await connection.prompt(
        { sessionId: this.acpSessionId, prompt: encodePrompt(addendum.length ? [...prompt, ...addendum] : prompt) },
        turn.abort.signal,
      );
      // ACP says an agent answers a cancelled prompt with `cancelled`; Copilot CLI 1.0.79 (what the
      // catalog's Copilot language server runs) stops but answers `end_turn`. The person pressed
      // Stop and the agent stopped: the turn is shown as stopped.
      const stopped = turn.cancelRequested && result.stopReason === 'end_turn';
      ended = { stopReason: stopped ? 'cancelled' : result.stopReason, usage: result.usage };
      endedInLog = result.endedInLog === true;
      if (result.error && isAuthRequired(result.error)) {
        // The turn ended asking for sign-in: sign in, then the message goes again.
        if (!this.fold().authMethods) this.host.requireAuth(this, result.error.message);
        this.retryAfterSignIn = () => this.startTurn(prompt);
      }
    } catch (error) {
      if (turn.abort.signal.aborted) {
        ended = { stopReason: 'cancelled' };
      } else if (isAuthRequired(error)) {
        if (!this.fold().authMethods) this.host.requireAuth(this, (error as Error).message);
        this.retryAfterSignIn = () => this.startTurn(prompt);
        ended = { stopReason: 'auth_required', error: AUTH_RETRY_NOTE };
      } else {
        ended = { stopReason: 'error', error: (error as Error).message };
      }
    } finally {
      if (turn.cancelTimer) clearTimeout(turn.cancelTimer);
      if (this.running === turn) {
        this.running = null;
        this.cancelPending('turn ended');
        if (!endedInLog) this.record({ kind: 'turn.ended', turnId: turn.turnId, ...ended! });
        this.host.afterTurn?.(this, turn.turnId);
        this.nextQueued();
      }
    }
  }

  /** Cancels the running turn: `session/cancel`, every pending request answered `cancelled`. */
  cancel(): void {
    const turn = this.running;
    // The queue is what the person typed while waiting: cancel keeps it visible but stops it.
    for (const queued of this.fold().queue) this.record({ kind: 'prompt.dequeued', queueId: queued.queueId });
    this.cancelPending('cancelled');
    if (!turn) return;
    turn.cancelRequested = true;
    // The app's own requests still waiting for the agent are withdrawn too (`$/cancel_request`).
    if (this.connection && this.acpSessionId) this.connection.cancelRequests?.(this.acpSessionId);
    if (this.connection && this.acpSessionId) this.connection.cancelTurn(this.acpSessionId);
    // The agent should answer the prompt with `cancelled`; if it never does, stop waiting.
    turn.cancelTimer ??= setTimeout(() => turn.abort.abort(), this.host.cancelGraceMs);
    if (!this.connection) turn.abort.abort();
  }

  /** Answers every request waiting for the person as cancelled (nothing waits forever). */
  cancelPending(reason: string): void {
    for (const requestId of this.permissions.cancelSession(this.id)) {
      this.record({ kind: 'permission.resolved', requestId, optionId: null, reason });
    }
    for (const requestId of this.elicitations.cancelSession(this.id)) {
      this.record({ kind: 'elicitation.resolved', requestId, action: 'cancel' });
    }
  }

  // ---------------------------------------------------------------- the person's answers

  /** Answers a waiting permission request; returns the option chosen (null: cancelled). */
  answerPermission(requestId: string, optionId: string | null): { option: PermissionOption; toolKind: string } | null {
    const pending = this.fold().permissions.find((p) => p.requestId === requestId);
    if (!pending || !this.permissions.has(requestId)) throw new UserError('This permission request is no longer waiting.');
    const option = optionId === null ? undefined : pending.options.find((o) => o.optionId === optionId);
    if (optionId !== null && !option) throw new UserError(`"${optionId}" is not one of this request's options.`);
    this.record({ kind: 'permission.resolved', requestId, optionId });
    this.permissions.resolve(requestId, optionId === null ? { outcome: { outcome: 'cancelled' } } : { outcome: { outcome: 'selected', optionId } });
    return option ? { option, toolKind: this.toolKindOf(pending.toolCallId, pending.tool) } : null;
  }

  /** Answers a waiting elicitation; a form answer must fit the question's schema. */
  answerElicitation(requestId: string, action: ElicitationAnswer['action'], answer?: unknown): void {
    if (!this.elicitations.has(requestId)) throw new UserError('This question is no longer waiting for an answer.');
    const content = decodeElicitationContent(answer);
    const pending = this.fold().elicitations.find((e) => e.requestId === requestId);
    if (action === 'accept' && pending?.request.mode === 'form') {
      const problems = checkElicitationAnswer(pending.request, content ?? {});
      if (problems.length) throw new UserError(`The answer does not fit the question: ${problems.join(' ')}`);
    }
    this.record({ kind: 'elicitation.resolved', requestId, action, content: action === 'accept' ? content : undefined });
    this.elicitations.resolve(requestId, action === 'accept' ? { action, content: content ?? {} } : { action });
  }

  // ---------------------------------------------------------------- detaching

  /**
   * Lets go of the agent: pending requests cancelled, the running turn ended (in the log, now),
   * terminals killed. The one path for closing the tab, quitting, the agent exiting and the agent
   * being stopped by the app. A detached turn records nothing more when its request settles.
   */
  detach(reason: DetachReason): void {
    if (reason.kind === 'closed' && this.turn) this.cancel();
    const connection = this.link;
    this.link = null;
    const why = reason.kind === 'stopped' ? reason.message : DETACH_WHY[reason.kind];
    this.cancelPending(why);
    // For a closed tab the log closes next, before the agent answers session/cancel: the turn
    // ends in the log now (as cancelled), so reopening it shows a finished conversation;
    // `runTurn` then sees another turn and records nothing more.
    const turn = this.running;
    this.running = null;
    if (turn) {
      if (turn.cancelTimer) clearTimeout(turn.cancelTimer);
      if (reason.kind === 'stopped') turn.abort.abort();
      if (reason.kind === 'closed') this.record({ kind: 'turn.ended', turnId: turn.turnId, stopReason: 'cancelled' });
      else if (reason.kind !== 'quit')
        this.record({
          kind: 'turn.ended',
          turnId: turn.turnId,
          stopReason: 'error',
          error: reason.kind === 'exited' ? 'The agent exited during this turn.' : reason.message,
        });
    }
    for (const terminal of this.terminals.values()) terminal.kill();
    if (reason.kind === 'closed' && connection && this.acpSessionId && connection.supportsSession('close')) {
      // Best effort: the session is closed here either way; an agent that fails to close it keeps a stale one.
      void connection.closeSession(this.acpSessionId).catch(logged(`Closing ACP session ${this.acpSessionId} on the agent`, 'debug'));
    }
    if (reason.kind === 'exited') {
      const { code, signal, stderrTail, stderrLog } = reason;
      this.record({ kind: 'agent.exited', code, signal, stderrTail, ...(stderrLog ? { stderrLog } : {}) });
    }
  }

  /** A tool call's kind: from the request, else from the call as announced, else `other`. */
  toolKindOf(toolCallId: string, asked: ToolCallFields): string {
    if (asked.toolKind) return asked.toolKind;
    const state = this.fold();
    const index = state.toolIndex[toolCallId];
    const entry = index === undefined ? undefined : state.entries[index];
    return entry?.kind === 'tool' ? entry.toolKind : 'other';
  }

  terminal(terminalId: string): Terminal {
    const terminal = this.terminals.get(terminalId);
    if (!terminal) throw new UserError(`Unknown terminal ${terminalId}`, AcpErrorCode.resourceNotFound);
    return terminal;
  }
}

/**
 * Events that stream many times a second and cannot change what the sidebar and tabs show
 * (status, title, pending requests): they do not trigger an app-state push each.
 */
function isStreamingEvent(event: SessionEvent): boolean {
  switch (event.kind) {
    case 'terminal.output':
    case 'message.chunk':
    case 'plan.replaced':
    case 'usage.updated':
    case 'tool.updated':
    case 'tool.contentAppended':
      return true;
    default:
      return false;
  }
}
