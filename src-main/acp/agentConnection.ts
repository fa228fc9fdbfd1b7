// Over 400 lines on purpose: the SDK-backed AgentLink keeps the whole wire boundary in one place (the
// raw tap, the list of what the SDK drops, requests with their timeouts, the client methods it serves,
// the protocol negotiation, and the session methods each version's dialect encodes).
import * as acp from '@agentclientprotocol/sdk/unstable';
import type * as acp2 from '@agentclientprotocol/sdk/experimental/v2/unstable';
import type { SessionEventBody } from '../../src-shared/session/events';
import type { McpServerSetting, ProtocolSetting } from '../../src-shared/settings';
import { type AgentHost, type ExitInfo, type LaunchSpec, spawnAgent, type StartAgent } from '../agents/agentProcess';
import type { AgentLink, OpenHow, PromptOutcome } from './agentLink';
import type { DecodedPermission, DecodedSession, Dialect, UpdateDecoder } from './dialects/dialect';
import { v1 } from './dialects/v1';
import { asV1Initialize, type AgentProfile } from './dialects/profile';
import { negotiate, NegotiationError, sendNotification, sendRequest, type AgentTransport, type SdkClientConnection } from './dialects/negotiate';
import { startNegotiation, stepNegotiation, type NegotiationInput } from './dialects/negotiation';
import { LEGACY_TERMINAL_AUTH_CAPABILITY } from '../agents/quirks/claudeCodeAcp';
import { TERMINAL_OUTPUT_CAPABILITY } from '../agents/quirks/codexAcp';
import { GarbageSummary, guardStdout, MAX_LINE_BYTES, tapMessages } from './rawTap';
import { UserError as ProtocolError } from '../errors/errors';
import { logged } from '../log/mainLog';
import { capabilitiesOf, hasSessionCapability } from '../../src-shared/acp/agent';
import { acpErrorView, type AcpErrorView } from '../../src-shared/acp/error';
import { obj } from '../../src-shared/acp/read';
import { AcpErrorCode } from '../errors/errors';
import { KNOWN_ELICITATION_MODES } from '../../src-shared/acp/known';
import { formatSeconds } from './formatSeconds';

type RawObject = Record<string, unknown>;
type JsonRpcId = string | number | null;

/*
 * Where SDK 2.4.0 (`@agentclientprotocol/sdk/unstable`, client side) drops or rejects values
 * that ACP's forward-compatibility rule says must be preserved. Each line is asserted by
 * `sdkBoundary.test.ts` against the SDK itself, so an SDK upgrade that changes it fails there.
 *
 * Notifications (`session/update`), validated before any handler runs:
 *   - unknown `sessionUpdate` kind (future or `_`-prefixed): the whole notification is dropped,
 *     only `console.error("Error handling notification", -32602)` remains;
 *   - a message chunk whose content block `type` is unknown: the whole notification is dropped;
 *   - `user_message_chunk` with a `resource` lacking `text`/`blob`: dropped whole;
 *   - `tool_call` / `tool_call_update` with an unknown `kind` or `status` (also `_`-prefixed):
 *     the field is removed (arrives as `undefined`); unknown tool-call content items are removed
 *     from `content`; unknown fields of `locations` are stripped;
 *   - `plan`: entries with an unknown `priority` or `status` are removed from the list;
 *   - `config_option_update`: options with an unknown `type` are removed (unknown `category`
 *     values and `_meta` survive);
 *   - `available_commands_update`: an unknown `input` shape is removed from the command.
 * Requests from the agent:
 *   - `session/request_permission` with an option `kind` the schema does not list (future or
 *     `_`-prefixed): the SDK answers -32602 itself and our handler never runs; the tool call's
 *     unknown `kind`/`status` and unknown content items are stripped from `params`;
 *   - `terminal/create` etc. with out-of-range values: -32602 from the SDK (legitimate);
 *   - unknown methods, `_`-prefixed or not: -32601 from the SDK (what the spec asks);
 *   - `elicitation/create` with an unknown `mode` or property `type`: passed through unchanged.
 * Unknown notifications (`_x` or not) are ignored silently. Responses to our own requests are
 * NOT validated: `initialize` (unknown auth method types such as `env_var`), `session/prompt`
 * (future stop reasons) and the rest arrive raw.
 *
 * What this file does about it: every incoming message passes `onIncoming` (the raw tap) before
 * the SDK. `session/update` and `elicitation/complete` are taken raw there and never given to
 * the SDK at all (nothing to drop, and ten thousand chunks are not zod-parsed twice). Requests
 * keep their raw params by JSON-RPC id and handlers read those; a permission request with an
 * unknown option kind is forwarded to the SDK with that kind replaced by a placeholder so its
 * validator lets it through (the person still sees, and answers, the raw options). Any request
 * the SDK still answers with an error before our handler ran is reported through
 * `ClientSide.onRejectedRequest` with its raw params, so it is kept in the session's events.
 */

/** What the client side of the protocol does for the agent; implemented by the session layer. */
export interface ClientSide {
  /**
   * Every `session/update`, in arrival order, called synchronously (order matters), as the
   * app's events the protocol version's dialect decoded it into (v1: `acp.update`, unchanged).
   */
  onSessionUpdate(acpSessionId: string, events: SessionEventBody[], notification: RawObject): void;
  /**
   * `raw` is the request's params exactly as the agent sent them; `decode` gives what the
   * person is asked (tool call, options, title, subject) for the app's request id.
   */
  requestPermission(raw: RawObject, signal: AbortSignal, decode: (requestId: string) => DecodedPermission): Promise<acp.RequestPermissionResponse>;
  readTextFile(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse>;
  writeTextFile(params: acp.WriteTextFileRequest): Promise<acp.WriteTextFileResponse>;
  createTerminal(params: acp.CreateTerminalRequest): Promise<acp.CreateTerminalResponse>;
  terminalOutput(params: acp.TerminalOutputRequest): Promise<acp.TerminalOutputResponse>;
  waitForTerminalExit(params: acp.WaitForTerminalExitRequest, signal: AbortSignal): Promise<acp.WaitForTerminalExitResponse>;
  killTerminal(params: acp.KillTerminalRequest): Promise<acp.KillTerminalResponse>;
  releaseTerminal(params: acp.ReleaseTerminalRequest): Promise<acp.ReleaseTerminalResponse>;
  /**
   * `elicitation/create`, raw. `scope` routes it: its own `sessionId`, or for a request-scoped
   * elicitation the session of the request it names (`requestSessionId`) or that request's owner.
   */
  createElicitation(raw: RawObject, signal: AbortSignal, scope: { requestSessionId?: string; owner?: string }): Promise<RawObject>;
  completeElicitation(params: RawObject): void;
  /** A request the SDK refused (schema validation) before any handler saw it; kept raw. */
  onRejectedRequest?(method: string, raw: RawObject, error: RawObject): void;
  /** A stdout line that was not JSON-RPC (agents that log to stdout by mistake), or a summary of many. */
  onGarbage(line: string): void;
  /** The agent sent a message over the size limit; it was dropped (the connection lives on). */
  onOversize?(bytes: number): void;
}

export const CLIENT_INFO = { name: 'acp-desktop', title: 'ACP Desktop', version: '0.1.0' };

/**
 * What we declare at `initialize`: only what works end to end, each proven by a test in
 * `src-main/sessions/*.test.ts` (fs read/write, terminals, boolean config options, terminal
 * sign-in, form and URL elicitation).
 */
export const CLIENT_CAPABILITIES = {
  fs: { readTextFile: true, writeTextFile: true },
  terminal: true,
  session: { configOptions: { boolean: {} } },
  auth: { terminal: true },
  elicitation: { form: {}, url: {} },
  // Zed's pre-`type: "terminal"` sign-in extension (quirks/claudeCodeAcp.ts); Codex's streamed command output (quirks/codexAcp.ts).
  _meta: { ...LEGACY_TERMINAL_AUTH_CAPABILITY, ...TERMINAL_OUTPUT_CAPABILITY },
} satisfies acp.ClientCapabilities;

/** Permission option kinds of ACP v1; anything else is replaced before the SDK validates it. */
const PERMISSION_OPTION_KINDS = new Set(['allow_once', 'allow_always', 'reject_once', 'reject_always']);

/** Elicitation modes this client can show; others are refused with -32602 (rfds-elicitation). */
export const ELICITATION_MODES = new Set<string>(KNOWN_ELICITATION_MODES);

/** The user-facing error (`errors/errors.ts`), under the name the rest of main still uses. */
export { ProtocolError };

/** `auth_required` (-32000) from any request: starts the sign-in flow. */
export function isAuthRequired(error: unknown): boolean {
  return acpErrorView(error).code === AcpErrorCode.authRequired;
}

function isObject(value: unknown): value is RawObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * One agent process and its ACP connection. This folder is the only runtime user of the SDK:
 * it does the JSON-RPC; we read raw messages at the stream boundary because the SDK's client
 * drops unknown values before any handler runs (see the note at the top of this file).
 */
/** Which protocol versions to speak, and the agent's name and id for the messages about it. */
export interface ConnectionOptions {
  protocol?: ProtocolSetting;
  agent?: { name: string; id?: string };
}

export class AgentConnection implements AgentLink {
  /** The agent's process (or, in unit tests, an agent running in this process); replaced if negotiation restarts it. */
  process!: AgentHost;
  initializeResult: acp.InitializeResponse | null = null;
  /** The version spoken and its dialect (v1 until `initialize` settles another). */
  private dialect: Dialect = v1;
  private profile: AgentProfile | null = null;
  private decoder: UpdateDecoder = v1.createDecoder();
  private connection: SdkClientConnection | null = null;
  private transport!: AgentTransport;
  private closed = false;
  private negotiating = false;
  private readonly protocol: ProtocolSetting;
  private readonly agent: { name: string; id?: string };
  private readonly exitedPromise: Promise<ExitInfo>;
  private resolveExit!: (info: ExitInfo) => void;
  /** Turns waiting for the agent's state to say they ended, by ACP session id (agents that report turns by state). */
  private turns = new Map<string, { resolve(event: Extract<SessionEventBody, { kind: 'session.state' }>): void; reject(error: Error): void }>();
  /** Raw results of responses by our JSON-RPC id, for fields the SDK would drop (future stop reasons). */
  private rawResults = new Map<JsonRpcId, unknown>();
  /** Our requests in flight: method and params (for request-scoped elicitations). */
  private outgoing = new Map<JsonRpcId, { method: string; params: RawObject }>();
  /** The app session a request was sent for, by its params object. */
  private owners = new WeakMap<object, string>();
  /** The agent's requests in flight, by its JSON-RPC id: raw params, and whether a handler ran. */
  private incomingRequests = new Map<JsonRpcId, { method: string; raw: RawObject; handled: boolean }>();

  constructor(
    private readonly spec: LaunchSpec,
    private readonly clientSide: ClientSide,
    private readonly onStderr?: (text: string) => void,
    private readonly start: StartAgent = spawnAgent,
    options: ConnectionOptions = {},
  ) {
    this.protocol = options.protocol ?? 'v1';
    this.agent = options.agent ?? { name: 'The agent' };
    this.exitedPromise = new Promise((resolve) => (this.resolveExit = resolve));
    this.transport = this.launch();
    // v1 only: the connection is there before `initialize` (as it always was); other settings
    // negotiate first, each attempt on an SDK client of the version it offers.
    if (this.protocol === 'v1') this.connection = this.registerV1(acp.client({ name: CLIENT_INFO.name })).connect(this.transport.stream!);
  }

  /** Starts the agent process and frames its stdio (stdout guard, raw tap). */
  private launch(): AgentTransport {
    const process = this.start(this.spec, this.onStderr);
    this.process = process;
    const { input, output } = process.webStreams();
    // Non-JSON stdout is summarised and lines over the SDK's limit are dropped (rawTap.ts).
    const garbage = new GarbageSummary((text) => this.clientSide.onGarbage(text));
    void process.exited.then(() => garbage.dispose());
    const stream = acp.ndJsonStream(
      output,
      guardStdout(input, {
        onGarbage: (line) => {
          // Kept with the agent's log too, so it is visible even when no session is listening.
          process.stderr.add(`[stdout, not ACP] ${line.slice(0, 500)}`);
          garbage.add(line);
        },
        onOversize: (bytes) => {
          process.stderr.add(`[stdout] a message of ${bytes} bytes, over the ${MAX_LINE_BYTES}-byte limit, was dropped`);
          this.clientSide.onOversize?.(bytes);
        },
      }),
    );
    const tapped = tapMessages(stream, {
      incoming: (message) => {
        // Garbage held for the next summary is reported before a response ends a turn (it would find no session).
        if (!('method' in message)) garbage.flush();
        return this.onIncoming(message as RawObject) as acp.AnyMessage | undefined;
      },
      outgoing: (message) => this.onOutgoing(message as RawObject),
    });
    this.watchExit(process);
    return { input, output, stream: tapped, stop: () => process.stop() };
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

  get agentCapabilities(): RawObject {
    return (this.initializeResult?.agentCapabilities ?? {}) as RawObject;
  }

  /** Whether the agent advertised a session capability such as `list`, `resume`, `close`, `fork`. */
  supportsSession(name: string): boolean {
    return hasSessionCapability(capabilitiesOf(this.agentCapabilities), name);
  }

  get supportsLogout(): boolean {
    return capabilitiesOf(this.agentCapabilities).auth.logout;
  }

  get promptCapabilities(): RawObject {
    return obj(this.agentCapabilities.promptCapabilities);
  }

  private onIncoming(message: RawObject): RawObject | void {
    const method = typeof message.method === 'string' ? message.method : undefined;
    const params = isObject(message.params) ? message.params : undefined;
    const hasId = message.id !== undefined && message.id !== null;
    if (method && !hasId) {
      // Taken raw here and never handed to the SDK (see the note at the top of this file).
      if (method === 'session/update' && params) {
        if (typeof params.sessionId === 'string' && isObject(params.update)) {
          const events = this.decoder.decode(params.sessionId, params.update);
          this.clientSide.onSessionUpdate(params.sessionId, events, params);
          // Recorded first, then the waiting turn learns it ended (its end is in the log already).
          for (const event of events) if (event.kind === 'session.state' && event.turnEnded) this.turns.get(params.sessionId)?.resolve(event);
        }
        return IGNORED_NOTIFICATION;
      }
      if (method === 'elicitation/complete' && params) {
        this.clientSide.completeElicitation(params);
        return IGNORED_NOTIFICATION;
      }
      return;
    }
    if (method && hasId) {
      const raw = params ?? {};
      this.incomingRequests.set(message.id as JsonRpcId, { method, raw, handled: false });
      if (method === 'session/request_permission' && Array.isArray(raw.options)) {
        const unknown = raw.options.some((option) => isObject(option) && !PERMISSION_OPTION_KINDS.has(String(option.kind)));
        if (unknown) {
          // The SDK would answer -32602 for the whole request: give it a copy it accepts.
          const options = raw.options.map((option) =>
            isObject(option) && !PERMISSION_OPTION_KINDS.has(String(option.kind)) ? { ...option, kind: 'reject_once' } : option,
          );
          return { ...message, params: { ...raw, options } };
        }
      }
      return;
    }
    if (!method && hasId && ('result' in message || 'error' in message)) {
      const id = message.id as JsonRpcId;
      if ('result' in message && this.outgoing.has(id)) this.rawResults.set(id, message.result);
      // Kept until the caller has read it; `request` removes both.
    }
  }

  private onOutgoing(message: RawObject): void {
    const hasId = message.id !== undefined && message.id !== null;
    if (typeof message.method === 'string' && hasId) {
      this.outgoing.set(message.id as JsonRpcId, { method: message.method, params: isObject(message.params) ? message.params : {} });
      return;
    }
    if (!('method' in message) && hasId) {
      // Our answer to one of the agent's requests.
      const id = message.id as JsonRpcId;
      const entry = this.incomingRequests.get(id);
      this.incomingRequests.delete(id);
      // Unknown methods (-32601) are answered and otherwise ignored, as the spec says; a method
      // we serve that the SDK refused is kept, because the agent's request would be lost.
      if (entry && !entry.handled && isObject(message.error) && message.error.code !== AcpErrorCode.methodNotFound) {
        this.clientSide.onRejectedRequest?.(entry.method, entry.raw, message.error);
      }
    }
  }

  /** The raw params of the agent's request `requestId` (falls back to the SDK's parsed ones). */
  private raw(requestId: JsonRpcId, parsed: unknown): RawObject {
    const entry = this.incomingRequests.get(requestId);
    if (entry) entry.handled = true;
    return entry?.raw ?? (parsed as RawObject);
  }

  private handled(requestId: JsonRpcId): void {
    const entry = this.incomingRequests.get(requestId);
    if (entry) entry.handled = true;
  }

  /** Our errors keep their JSON-RPC code (the SDK would turn any other throw into -32603). */
  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ProtocolError && error.code !== undefined)
        throw new acp.RequestError(error.code, error.message, error.data ?? { details: error.message });
      throw error;
    }
  }

  private permission(params: unknown, signal: AbortSignal, requestId: JsonRpcId): Promise<acp.RequestPermissionResponse> {
    const raw = this.raw(requestId, params);
    return this.guard(() => this.clientSide.requestPermission(raw, signal, (id) => this.dialect.decodePermissionRequest(raw, id)));
  }

  private elicitation(params: unknown, signal: AbortSignal, requestId: JsonRpcId): Promise<RawObject> {
    return this.guard(async () => {
      const raw = this.raw(requestId, params);
      const scope: { requestSessionId?: string; owner?: string } = {};
      if (raw.requestId !== undefined && raw.requestId !== null) {
        const target = this.outgoing.get(raw.requestId as JsonRpcId);
        if (target && typeof target.params.sessionId === 'string') scope.requestSessionId = target.params.sessionId;
        if (target) scope.owner = this.owners.get(target.params);
      }
      return this.clientSide.createElicitation(raw, signal, scope);
    });
  }

  /** The client side on the v1 SDK: permission, fs, terminals, elicitation. */
  private registerV1(app: acp.ClientApp): acp.ClientApp {
    const side = this.clientSide;
    const guard = <T>(work: () => Promise<T>) => this.guard(work);
    return (
      app
        // Never called: both are taken raw in `onIncoming`; registered so the SDK knows them.
        .onNotification('session/update', () => {})
        .onNotification('elicitation/complete', () => {})
        .onRequest('session/request_permission', ({ params, signal, requestId }) => this.permission(params, signal, requestId))
        .onRequest('fs/read_text_file', ({ params, requestId }) => (this.handled(requestId), guard(() => side.readTextFile(params))))
        .onRequest('fs/write_text_file', ({ params, requestId }) => (this.handled(requestId), guard(() => side.writeTextFile(params))))
        .onRequest('terminal/create', ({ params, requestId }) => (this.handled(requestId), guard(() => side.createTerminal(params))))
        .onRequest('terminal/output', ({ params, requestId }) => (this.handled(requestId), guard(() => side.terminalOutput(params))))
        .onRequest(
          'terminal/wait_for_exit',
          ({ params, signal, requestId }) => (this.handled(requestId), guard(() => side.waitForTerminalExit(params, signal))),
        )
        .onRequest('terminal/kill', ({ params, requestId }) => (this.handled(requestId), guard(() => side.killTerminal(params))))
        .onRequest('terminal/release', ({ params, requestId }) => (this.handled(requestId), guard(() => side.releaseTerminal(params))))
        .onRequest(
          'elicitation/create',
          async ({ params, signal, requestId }) => (await this.elicitation(params, signal, requestId)) as unknown as acp.CreateElicitationResponse,
        )
    );
  }

  /** The client side on the v2 SDK: v2 clients serve no fs or terminal methods (terminals belong to the agent). */
  private registerV2(app: acp2.ClientApp): acp2.ClientApp {
    return app
      .onNotification('session/update', () => {})
      .onNotification('elicitation/complete', () => {})
      .onRequest(
        'session/request_permission',
        async ({ params, signal, requestId }) => (await this.permission(params, signal, requestId)) as unknown as acp2.RequestPermissionResponse,
      )
      .onRequest(
        'elicitation/create',
        async ({ params, signal, requestId }) => (await this.elicitation(params, signal, requestId)) as unknown as acp2.CreateElicitationResponse,
      );
  }

  /**
   * Sends a request with a timeout (0: none), an optional cancel signal, and optionally the app
   * session it is sent for (to route request-scoped elicitations). Resolves with the raw result.
   */
  async request<T = unknown>(method: string, params: RawObject, options: { timeoutMs?: number; signal?: AbortSignal; owner?: string } = {}): Promise<T> {
    if (this.closed) throw new ProtocolError('The agent is not running.');
    const connection = this.connection;
    if (!connection) throw new ProtocolError(`${this.agent.name} has not finished initialize yet.`);
    const controller = new AbortController();
    const timeoutMs = options.timeoutMs ?? 0;
    let timedOut = false;
    const timer = timeoutMs > 0 ? setTimeout(() => ((timedOut = true), controller.abort()), timeoutMs) : undefined;
    const onAbort = () => controller.abort();
    if (options.signal?.aborted) controller.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.owner) this.owners.set(params, options.owner);
    let id: JsonRpcId | undefined;
    try {
      const exit = this.process.exited.then((info) => {
        throw new ProtocolError(describeExit(info));
      });
      const call = sendRequest(connection, method, params, {
        cancellationSignal: controller.signal,
        stopWaitingOnCancel: true,
      } as acp.SendRequestOptions) as Promise<T>;
      const result = await Promise.race([call, exit]);
      id = this.idOf(params);
      if (id !== undefined && this.rawResults.has(id)) return this.rawResults.get(id) as T;
      return result;
    } catch (error) {
      if (timedOut) throw new ProtocolError(`The agent did not answer ${method} within ${formatSeconds(timeoutMs)}.`);
      // A response the SDK could not map (e.g. a shape it does not know) is still a response.
      id ??= this.idOf(params);
      if (id !== undefined && this.rawResults.has(id) && !controller.signal.aborted) return this.rawResults.get(id) as T;
      if (error instanceof ProtocolError) throw error;
      const e = acpErrorView(error);
      if (e.code === null) {
        // Not an answer from the agent: the stream closed. Say why (the exit), not "connection closed".
        const info = await Promise.race([this.process.exited, new Promise<null>((r) => setTimeout(() => r(null), 1000))]);
        if (info) throw new ProtocolError(describeExit(info));
      }
      throw new ProtocolError(describeAgentError(method, e), e.code ?? undefined, e.data);
    } finally {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      id ??= this.idOf(params);
      if (id !== undefined) {
        this.rawResults.delete(id);
        this.outgoing.delete(id);
      }
    }
  }

  /** Our JSON-RPC id of the request sent with this params object (the SDK sends it as is). */
  private idOf(params: RawObject): JsonRpcId | undefined {
    for (const [id, entry] of this.outgoing) if (entry.params === params) return id;
    return undefined;
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
        result = await this.request<RawObject>('initialize', v1.encodeInitialize(CLIENT_INFO, CLIENT_CAPABILITIES), { timeoutMs });
      } catch (error) {
        const e = error as ProtocolError;
        if (e.code === -32022) throw new ProtocolError(this.mismatch({ type: 'error', code: e.code, message: e.message, data: e.data }), e.code, e.data);
        throw error;
      }
      if (!isObject(result) || result.protocolVersion !== 1)
        throw new ProtocolError(this.mismatch({ type: 'answered', protocolVersion: result?.protocolVersion }));
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
          return (this.transport = this.launch());
        },
        client: CLIENT_INFO,
        capabilities: CLIENT_CAPABILITIES,
        timeoutMs,
        buildClient: { v1: (app) => this.registerV1(app), v2: (app) => this.registerV2(app) },
      });
      this.connection = negotiated.connection;
      // The negotiation's own requests never went through `request`.
      this.outgoing.clear();
      this.rawResults.clear();
      if (negotiated.steps.length > 1) this.process.stderr.add(`[acp-desktop] protocol negotiation: ${negotiated.steps.join(', ')}`);
      this.adopt(negotiated.dialect, negotiated.result, negotiated.profile);
      return this.initializeResult!;
    } catch (error) {
      if (error instanceof NegotiationError) throw new ProtocolError(error.message);
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

  /**
   * `session/prompt`, returning the raw stop reason even when it is a value the SDK's schema
   * does not know yet (a future ACP stop reason must not turn a finished turn into an error).
   */
  async prompt(params: RawObject, signal?: AbortSignal): Promise<PromptOutcome> {
    const acpSessionId = String(params.sessionId);
    // Agents that report turns by state: the answer only accepts the message; the first idle
    // after running ends the turn. Waiting starts before sending (the idle may come first).
    const ended = new Promise<Extract<SessionEventBody, { kind: 'session.state' }>>((resolve, reject) => this.turns.set(acpSessionId, { resolve, reject }));
    const waiter = this.turns.get(acpSessionId)!;
    // Awaited only for agents that report turns by state; otherwise its rejection (the process ended) is expected.
    ended.catch(logged(`Waiting for the end of a turn of ${acpSessionId}`, 'debug'));
    try {
      const result = await this.request<RawObject>(this.dialect.methods.prompt, params, { signal });
      const outcome = this.dialect.decodePromptResult(result);
      if (outcome.kind === 'ended') return { stopReason: outcome.stopReason, usage: outcome.usage, meta: outcome.meta };
      const state = await new Promise<Extract<SessionEventBody, { kind: 'session.state' }>>((resolve, reject) => {
        ended.then(resolve, reject);
        if (signal?.aborted) reject(new ProtocolError('cancelled'));
        signal?.addEventListener('abort', () => reject(new ProtocolError('cancelled')), { once: true });
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
      throw new ProtocolError('The agent answered session/new without a session id.');
    return this.dialect.decodeSession(isObject(result) ? result : {}, typeof params.sessionId === 'string' ? params.sessionId : undefined);
  }

  async setConfigOption(acpSessionId: string, configId: string, value: string | boolean): Promise<RawObject[] | null> {
    const result = await this.request<RawObject>(this.dialect.methods.setConfigOption, this.dialect.encodeSetConfigOption(acpSessionId, configId, value), {
      timeoutMs: 30_000,
    });
    // Decoded as a session answer: the same option shape as `session/new`.
    return this.dialect.decodeSession(isObject(result) ? result : {}, acpSessionId).configOptions;
  }

  async setMode(acpSessionId: string, modeId: string): Promise<void> {
    const method = this.dialect.methods.setMode;
    if (!method) throw new ProtocolError(`${agentTitle(this.initializeResult)} has no session modes (it offers config options instead).`);
    await this.request(method, { sessionId: acpSessionId, modeId }, { timeoutMs: 30_000 });
  }

  cancelTurn(acpSessionId: string): void {
    this.notify(this.dialect.methods.cancel, { sessionId: acpSessionId });
  }

  async cancelAgentWork(acpSessionId: string, work: { terminalId: string } | { toolCallId: string }): Promise<void> {
    const method = 'terminalId' in work ? this.dialect.methods.cancelTerminal : this.dialect.methods.cancelToolCall;
    if (!method) throw new ProtocolError(`${agentTitle(this.initializeResult)} cannot stop this work on request.`);
    await this.request(method, { sessionId: acpSessionId, ...work }, { timeoutMs: 30_000 });
  }

  /** Throws a clear error unless the agent advertised `sessionCapabilities[name]`. */
  requireSession(name: string, what: string): void {
    if (!this.supportsSession(name)) {
      const agent = agentTitle(this.initializeResult);
      throw new ProtocolError(`${agent} does not support ${what} (it does not advertise session/${name}).`);
    }
  }

  /** `session/list` (cursor pagination, cwd filter); only when advertised. */
  async listSessions(cwd?: string, cursor?: string): Promise<{ sessions: RawObject[]; nextCursor: string | null }> {
    this.requireSession('list', 'listing its sessions');
    const params: RawObject = {};
    if (cwd) params.cwd = cwd;
    if (cursor) params.cursor = cursor;
    const result = await this.request<RawObject>('session/list', params, { timeoutMs: 30_000 });
    const sessions = Array.isArray(result?.sessions) ? result.sessions.filter(isObject) : [];
    return { sessions, nextCursor: typeof result?.nextCursor === 'string' ? result.nextCursor : null };
  }

  async deleteSession(acpSessionId: string): Promise<void> {
    this.requireSession('delete', 'deleting sessions');
    await this.request('session/delete', { sessionId: acpSessionId }, { timeoutMs: 30_000 });
  }

  async forkSession(params: RawObject): Promise<RawObject> {
    this.requireSession('fork', 'forking sessions');
    return this.request<RawObject>('session/fork', params, { timeoutMs: 60_000 });
  }

  /** `logout`, only when the agent advertised `agentCapabilities.auth.logout`. */
  async logout(): Promise<void> {
    if (!this.supportsLogout) throw new ProtocolError(`${agentTitle(this.initializeResult)} does not support signing out (no auth.logout capability).`);
    await this.request(this.dialect.methods.logout, {}, { timeoutMs: 30_000 });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.connection?.close();
    for (const turn of this.turns.values()) turn.reject(new ProtocolError('The agent is not running.'));
    this.turns.clear();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  async stop(): Promise<void> {
    this.close();
    await this.transport.stop();
  }
}

/** What the SDK is given instead of a notification we took raw: an unknown one, ignored. */
const IGNORED_NOTIFICATION = { jsonrpc: '2.0', method: '_acp-desktop/taken-raw', params: {} };

function agentTitle(init: acp.InitializeResponse | null): string {
  const info = init?.agentInfo as RawObject | undefined;
  return String(info?.title ?? info?.name ?? 'The agent');
}

function describeAgentError(method: string, error: AcpErrorView): string {
  const message = error.message ?? String(error.raw);
  if (error.code === AcpErrorCode.methodNotFound) return `The agent does not implement ${method} (${message}).`;
  const detail = isObject(error.data) && typeof error.data.details === 'string' ? `: ${error.data.details}` : '';
  return `${message}${detail}`;
}

export function describeExit(info: ExitInfo, stderrTail: string[] = []): string {
  const tail = stderrTail.filter((line) => line.trim()).slice(-3);
  const suffix = tail.length ? ` Last output: ${tail.join(' | ')}` : '';
  if (info.spawnError) return `The agent could not be started: ${info.spawnError}`;
  if (info.signal) return `The agent was stopped by signal ${info.signal}.${suffix}`;
  return `The agent exited with code ${info.code}.${suffix}`;
}
