import * as acp from '@agentclientprotocol/sdk/unstable';
import type { SessionEventBody } from '../../src-shared/session/events';
import type { ProtocolSetting } from '../../src-shared/settings';
import { acpErrorView, type AcpErrorView } from '../../src-shared/acp/error';
import { type AgentHost, type ExitInfo, type LaunchSpec, spawnAgent, type StartAgent } from '../process/agentProcess';
import { AcpErrorCode, UserError } from '../errors/errors';
import { logged } from '../log/mainLog';
import { clientCapabilitiesFor, CLIENT_INFO, type ClientSide } from './clientSide';
import { serveV1, serveV2, type ServeContext } from './clientMethods';
import type { Dialect, UpdateDecoder } from './dialects/dialect';
import { negotiate, NegotiationError, sendNotification, sendRequest, type AgentTransport, type SdkClientConnection } from './dialects/negotiate';
import { startNegotiation, stepNegotiation, type NegotiationInput } from './dialects/negotiation';
import { asV1Initialize, type AgentProfile } from './dialects/profile';
import { v1 } from './dialects/v1';
import { formatSeconds } from './formatSeconds';
import { agentMessages } from './agentStream';
import { RemoteAgentHost, remoteTiming } from './remoteHost';
import { isPermanentFailure, remoteRequestFailure } from './remoteErrors';
import { REMOTE_MAX_MESSAGE_BYTES } from '../../src-shared/remote';
import { tapIncoming, tapMessages } from './rawTap';
import { isObject, type JsonRpcId, RawBoundary } from './rawBoundary';
import type { TrafficRing } from './trafficRing';
import { wireRecorder, type WireRecorder } from './wireLog';
import { describeExit } from './describeExit';

import type { RawObject } from '../../src-shared/session/raw';

/** Which protocol versions to speak, and the agent's name and id for the messages about it. */
export interface ConnectionOptions {
  protocol?: ProtocolSetting;
  agent?: { name: string; id?: string };
  /** The protocol inspector's ring buffer for this agent: every line, both ways. */
  traffic?: TrafficRing;
  /** Records the traffic of each process started (default: only under `ACP_DESKTOP_WIRE_LOG`). */
  recorder?: () => WireRecorder | null;
}

/**
 * One agent process and its JSON-RPC connection: the process and its framed stdio (stdout guard,
 * raw tap), requests with timeouts and cancel, the client methods it serves, and `initialize`
 * with the protocol negotiation. This folder is the only runtime user of the SDK; we read raw
 * messages at the stream boundary because the SDK's client drops unknown values before any
 * handler runs (rawBoundary.ts). The session methods are in `AgentConnection`, on top of this.
 */
export class AgentWire {
  /** The agent's process (or, in unit tests, an agent running in this process); replaced if negotiation restarts it. */
  process!: AgentHost;
  initializeResult: acp.InitializeResponse | null = null;
  /** The version spoken and its dialect (v1 until `initialize` settles another). */
  protected dialect: Dialect = v1;
  protected profile: AgentProfile | null = null;
  private decoder: UpdateDecoder = v1.createDecoder();
  private connection: SdkClientConnection | null = null;
  private transport!: AgentTransport;
  private closed = false;
  private negotiating = false;
  private readonly protocol: ProtocolSetting;
  protected readonly agent: { name: string; id?: string };
  private readonly exitedPromise: Promise<ExitInfo>;
  private resolveExit!: (info: ExitInfo) => void;
  private readonly boundary: RawBoundary;
  private readonly serving: ServeContext;
  private readonly traffic: TrafficRing | undefined;
  /** The app's requests waiting for an answer, by the ACP session they name: withdrawn when the person stops a turn. */
  private readonly inFlight = new Map<string, Set<{ method: string; withdraw(): void }>>();
  private readonly recorder: () => WireRecorder | null;

  constructor(
    private readonly spec: LaunchSpec,
    private readonly clientSide: ClientSide,
    private readonly onStderr?: (text: string) => void,
    private readonly start: StartAgent = spawnAgent,
    options: ConnectionOptions = {},
  ) {
    this.protocol = options.protocol ?? 'v1';
    this.agent = options.agent ?? { name: 'The agent' };
    this.traffic = options.traffic;
    this.recorder = options.recorder ?? (() => wireRecorder(this.agent.id));
    this.exitedPromise = new Promise((resolve) => (this.resolveExit = resolve));
    this.boundary = new RawBoundary({
      sessionUpdate: (acpSessionId, update, params) => {
        const events = this.decoder.decode(acpSessionId, update);
        this.clientSide.onSessionUpdate(acpSessionId, events, params);
        // Recorded first, then the waiting turn learns it ended (its end is in the log already).
        for (const event of events) if (event.kind === 'session.state' && event.turnEnded) this.turnEnded(acpSessionId, event);
      },
      elicitationComplete: (params) => this.clientSide.completeElicitation(params),
      rejectedRequest: (method, raw, error) => this.clientSide.onRejectedRequest?.(method, raw, error),
    });
    this.serving = {
      side: clientSide,
      boundary: this.boundary,
      decodePermission: (raw, id) => this.dialect.decodePermissionRequest(raw, id),
      offers: spec.remote ? { fs: spec.remote.clientFs, terminal: spec.remote.clientTerminal } : undefined,
    };
    this.transport = this.launch();
    // v1 only: the connection is there before `initialize` (as it always was); other settings
    // negotiate first, each attempt on an SDK client of the version it offers.
    if (this.protocol === 'v1') this.connection = serveV1(acp.client({ name: CLIENT_INFO.name }), this.serving).connect(this.transport.stream!);
  }

  /** A state update ended a turn of `acpSessionId` (agents that report turns by state). */
  protected turnEnded(_acpSessionId: string, _event: Extract<SessionEventBody, { kind: 'session.state' }>): void {}

  /** Starts the agent process and frames its stdio (stdout guard, raw tap). */
  private launch(): AgentTransport {
    // The seam (issue 26): a remote agent is reached over the network, a local one is a process.
    const process = this.spec.remote
      ? new RemoteAgentHost(this.spec.remote, remoteTiming(this.spec.remote), this.agent.id)
      : this.start(this.spec, this.onStderr);
    this.process = process;
    const recorder = this.recorder();
    let onResponse = () => {};
    const incoming = tapIncoming({
      incoming: (message) => {
        recorder?.incoming(message);
        // Garbage held for the next summary is reported before a response ends a turn (it would find no session).
        if (!('method' in message)) onResponse();
        return this.boundary.incoming(message as RawObject) as acp.AnyMessage | undefined;
      },
    });
    const framed = agentMessages(process, incoming, {
      onGarbage: (line) => this.clientSide.onGarbage(line),
      onOversize: (bytes) => this.clientSide.onOversize?.(bytes),
      flushGarbage: (flush) => (onResponse = flush),
      onLine: this.traffic && ((dir, line) => this.traffic!.push(dir, line)),
      // v2 follows JSON-RPC 2.0 on batches (rfds-v2-overview); v1 refuses them, as the SDK does.
      batches: () => this.dialect.version === 2,
    });
    const tapped = tapMessages(
      framed.stream,
      {
        outgoing: (message) => {
          recorder?.outgoing(message);
          this.boundary.outgoingMessage(message as RawObject);
        },
      },
      process.messages ? REMOTE_MAX_MESSAGE_BYTES : undefined,
    );
    this.watchExit(process);
    return { ...framed, stream: tapped, stop: () => process.stop() };
  }

  /** The process in use exiting ends the connection (one stopped while negotiating restarts is not the end). */
  private watchExit(process: AgentHost): void {
    void process.exited.then((info) => {
      if (process !== this.process || this.negotiating) return;
      this.resolveExit(info);
      this.close();
    });
  }

  get exited(): Promise<ExitInfo> {
    return this.exitedPromise;
  }

  get protocolVersion(): number | null {
    return this.profile?.protocolVersion ?? null;
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  stderrTail(count?: number): string[] {
    return this.process.stderr.tail(count);
  }

  /**
   * Sends a request with a timeout (0: none), an optional cancel signal, and optionally the app
   * session it is sent for (to route request-scoped elicitations). Resolves with the raw result.
   */
  async request<T = unknown>(method: string, params: RawObject, options: { timeoutMs?: number; signal?: AbortSignal; owner?: string } = {}): Promise<T> {
    if (this.closed) throw new UserError('The agent is not running.');
    const connection = this.connection;
    if (!connection) throw new UserError(`${this.agent.name} has not finished initialize yet.`);
    const controller = new AbortController();
    const timeoutMs = options.timeoutMs ?? 0;
    let timedOut = false;
    const timer = timeoutMs > 0 ? setTimeout(() => ((timedOut = true), controller.abort()), timeoutMs) : undefined;
    const onAbort = () => controller.abort();
    if (options.signal?.aborted) controller.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.owner) this.boundary.setOwner(params, options.owner);
    let withdrawn = false;
    const untrack = this.track(params, method, () => ((withdrawn = true), controller.abort()));
    let id: JsonRpcId | undefined;
    try {
      const exit = this.process.exited.then((info) => {
        throw new UserError(describeExit(info));
      });
      const call = sendRequest(connection, method, params, {
        cancellationSignal: controller.signal,
        stopWaitingOnCancel: true,
      } as acp.SendRequestOptions) as Promise<T>;
      const result = await Promise.race([call, exit]);
      id = this.boundary.idOf(params);
      const raw = id !== undefined ? this.boundary.rawResult(id) : null;
      return raw ? (raw.value as T) : result;
    } catch (error) {
      if (timedOut) throw new UserError(`The agent did not answer ${method} within ${formatSeconds(timeoutMs)}.`);
      if (withdrawn) throw new UserError(`${method} was cancelled: the turn was stopped.`, AcpErrorCode.requestCancelled);
      // A response the SDK could not map (e.g. a shape it does not know) is still a response.
      id ??= this.boundary.idOf(params);
      const raw = id !== undefined ? this.boundary.rawResult(id) : null;
      if (raw && !controller.signal.aborted) return raw.value as T;
      if (error instanceof UserError) throw error;
      const e = acpErrorView(error);
      if (e.code === null) {
        // Not an answer from the agent: the stream closed. Say why (the exit), not "connection closed".
        const info = await Promise.race([this.process.exited, new Promise<null>((r) => setTimeout(() => r(null), 1000))]);
        if (info) throw new UserError(describeExit(info));
      }
      // A remote transport's own failure of one request (a 409 on the session's stream, a POST refused), not the agent's answer.
      const transport = this.spec.remote ? remoteRequestFailure(e, this.spec.remote.url) : null;
      if (transport) throw new UserError(transport, e.code ?? undefined, e.data);
      throw new UserError(describeAgentError(method, e), e.code ?? undefined, e.data);
    } finally {
      untrack();
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      id ??= this.boundary.idOf(params);
      if (id !== undefined) this.boundary.forget(id);
    }
  }

  /** Notes a request for the session its params name (see `cancelRequests`); returns its removal. */
  private track(params: RawObject, method: string, withdraw: () => void): () => void {
    const acpSessionId = typeof params.sessionId === 'string' ? params.sessionId : null;
    if (!acpSessionId) return () => {};
    const entry = { method, withdraw };
    let set = this.inFlight.get(acpSessionId);
    if (!set) this.inFlight.set(acpSessionId, (set = new Set()));
    set.add(entry);
    return () => {
      set.delete(entry);
      if (!set.size && this.inFlight.get(acpSessionId) === set) this.inFlight.delete(acpSessionId);
    };
  }

  /**
   * Withdraws the app's requests for a session that still wait for the agent, except the prompt
   * (`session/cancel` ends the turn): the SDK sends `$/cancel_request` for each (an aborted
   * request's signal), and each caller gets "cancelled" at once.
   */
  cancelRequests(acpSessionId: string): number {
    const pending = [...(this.inFlight.get(acpSessionId) ?? [])].filter((entry) => entry.method !== this.dialect.methods.prompt);
    for (const entry of pending) entry.withdraw();
    return pending.length;
  }

  notify(method: string, params: RawObject): void {
    if (this.closed || !this.connection) return;
    // A notification has no answer to fail: the only error is a closed pipe, which the exit reports.
    void sendNotification(this.connection, method, params).catch(logged(`Sending ${method}`, 'debug'));
  }

  /**
   * `initialize`, per the agent's protocol setting: `v1` asks in the v1 shape on the connection
   * made at start; `auto` and `v2` negotiate (dialects/negotiate.ts), which may initialize
   * again in the v1 shape or restart the process on v1. A version mismatch names both versions
   * and the setting to change.
   */
  async initialize(timeoutMs: number): Promise<acp.InitializeResponse> {
    if (this.protocol === 'v1') {
      let result: RawObject;
      try {
        result = await this.request<RawObject>('initialize', v1.encodeInitialize(CLIENT_INFO, clientCapabilitiesFor(this.spec.remote)), { timeoutMs });
      } catch (error) {
        const e = error as UserError;
        if (e.code === AcpErrorCode.protocolVersionNotSupported)
          throw new UserError(this.mismatch({ type: 'error', code: e.code, message: e.message, data: e.data }), e.code, e.data);
        throw error;
      }
      if (!isObject(result) || result.protocolVersion !== 1) throw new UserError(this.mismatch({ type: 'answered', protocolVersion: result?.protocolVersion }));
      this.adopt(v1, result, v1.decodeInitialize(result));
      return this.initializeResult!;
    }
    this.negotiating = true;
    let first = true;
    try {
      const negotiated = await negotiate({
        setting: this.protocol,
        agent: this.agent,
        start: () => {
          if (first) return ((first = false), this.transport);
          // A remote agent that refused us (401, 403, TLS…) is not asked again on v1: that is one more refused request.
          const lost = this.process instanceof RemoteAgentHost ? this.process.lostReason : null;
          if (lost && isPermanentFailure(lost)) throw new UserError(lost);
          return (this.transport = this.launch());
        },
        client: CLIENT_INFO,
        capabilities: clientCapabilitiesFor(this.spec.remote),
        timeoutMs,
        buildClient: { v1: (app) => serveV1(app, this.serving), v2: (app) => serveV2(app, this.serving) },
      });
      this.connection = negotiated.connection;
      this.boundary.clearOutgoing();
      if (negotiated.steps.length > 1) this.process.stderr.add(`[acp-desktop] protocol negotiation: ${negotiated.steps.join(', ')}`);
      this.adopt(negotiated.dialect, negotiated.result, negotiated.profile);
      return this.initializeResult!;
    } catch (error) {
      if (error instanceof NegotiationError) throw new UserError(error.message);
      throw error;
    } finally {
      this.negotiating = false;
      this.watchExit(this.process);
    }
  }

  /** The message for an `initialize` answer the setting does not allow (names both versions and the setting). */
  private mismatch(input: NegotiationInput): string {
    const { state } = startNegotiation(this.protocol, this.agent);
    const { action } = stepNegotiation(state, input);
    return action.type === 'fail' ? action.message : `${this.agent.name} answered initialize with an unexpected protocol version.`;
  }

  private adopt(dialect: Dialect, result: RawObject, profile: AgentProfile): void {
    this.dialect = dialect;
    this.profile = profile;
    this.decoder = dialect.createDecoder();
    this.initializeResult = (dialect.version === 1 ? result : asV1Initialize(profile)) as unknown as acp.InitializeResponse;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.connection?.close();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  async stop(): Promise<void> {
    this.close();
    await this.transport.stop();
  }
}

function describeAgentError(method: string, error: AcpErrorView): string {
  const message = error.message ?? String(error.raw);
  if (error.code === AcpErrorCode.methodNotFound) return `The agent does not implement ${method} (${message}).`;
  const detail = isObject(error.data) && typeof error.data.details === 'string' ? `: ${error.data.details}` : '';
  return `${message}${detail}`;
}
