import * as acp from '@agentclientprotocol/sdk/unstable';
import { AgentProcess, type ExitInfo, type LaunchSpec } from '../agents/agentProcess';
import { tapMessages } from './rawTap';

type RawObject = Record<string, unknown>;

/** What the client side of the protocol does for the agent; implemented by the session layer. */
export interface ClientSide {
  /** Every raw `session/update`, in arrival order, called synchronously (order matters). */
  onSessionUpdate(acpSessionId: string, update: RawObject): void;
  requestPermission(params: acp.RequestPermissionRequest, raw: RawObject, signal: AbortSignal): Promise<acp.RequestPermissionResponse>;
  readTextFile(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse>;
  writeTextFile(params: acp.WriteTextFileRequest): Promise<acp.WriteTextFileResponse>;
  createTerminal(params: acp.CreateTerminalRequest): Promise<acp.CreateTerminalResponse>;
  terminalOutput(params: acp.TerminalOutputRequest): Promise<acp.TerminalOutputResponse>;
  waitForTerminalExit(params: acp.WaitForTerminalExitRequest, signal: AbortSignal): Promise<acp.WaitForTerminalExitResponse>;
  killTerminal(params: acp.KillTerminalRequest): Promise<acp.KillTerminalResponse>;
  releaseTerminal(params: acp.ReleaseTerminalRequest): Promise<acp.ReleaseTerminalResponse>;
  createElicitation(params: RawObject, signal: AbortSignal): Promise<RawObject>;
  completeElicitation(params: RawObject): void;
  /** A stdout line that was not JSON-RPC (agents that log to stdout by mistake). */
  onGarbage(line: string): void;
}

export const CLIENT_INFO = { name: 'acp-desktop', title: 'ACP Desktop', version: '0.1.0' };

/** What we declare at `initialize`: only what works end to end. */
export const CLIENT_CAPABILITIES = {
  fs: { readTextFile: true, writeTextFile: true },
  terminal: true,
  session: { configOptions: { boolean: {} } },
  auth: { terminal: true },
  elicitation: { form: {}, url: {} },
} satisfies acp.ClientCapabilities;

export class ProtocolError extends Error {
  constructor(
    message: string,
    readonly code?: number,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** `auth_required` (-32000) from any request: starts the sign-in flow. */
export function isAuthRequired(error: unknown): boolean {
  return (error as { code?: number })?.code === -32000;
}

/**
 * One agent process and its ACP connection. This folder is the only runtime user of the SDK:
 * it does the JSON-RPC; we read raw `session/update` lines at the stream boundary because the
 * SDK's client drops unknown update kinds before any handler runs (TOOLCHAIN.md §8).
 */
export class AgentConnection {
  readonly process: AgentProcess;
  initializeResult: acp.InitializeResponse | null = null;
  private connection: acp.ClientConnection;
  private closed = false;
  /** Raw results of responses by JSON-RPC id, for fields the SDK would drop (future stop reasons). */
  private rawResults = new Map<string | number, unknown>();
  private outgoingMethods = new Map<string | number, string>();

  constructor(
    spec: LaunchSpec,
    private readonly clientSide: ClientSide,
    onStderr?: (text: string) => void,
  ) {
    this.process = new AgentProcess(spec, onStderr);
    const { input, output } = this.process.webStreams();
    const stream = acp.ndJsonStream(output, tapBytes(input, (line) => clientSide.onGarbage(line)));
    const tapped = tapMessages(stream, {
      incoming: (message) => this.onIncoming(message as RawObject),
      outgoing: (message) => this.onOutgoing(message as RawObject),
    });
    this.connection = this.buildClient().connect(tapped);
    void this.process.exited.then(() => this.close());
  }

  get exited(): Promise<ExitInfo> {
    return this.process.exited;
  }

  get agentCapabilities(): RawObject {
    return (this.initializeResult?.agentCapabilities ?? {}) as RawObject;
  }

  /** Whether the agent advertised a session capability such as `list`, `resume`, `close`, `fork`. */
  supportsSession(name: string): boolean {
    const session = (this.agentCapabilities.sessionCapabilities ?? {}) as RawObject;
    return session[name] !== undefined && session[name] !== null && session[name] !== false;
  }

  private onIncoming(message: RawObject): void {
    if (message.method === 'session/update' && typeof message.params === 'object' && message.params) {
      const params = message.params as RawObject;
      if (typeof params.sessionId === 'string' && typeof params.update === 'object' && params.update) {
        this.clientSide.onSessionUpdate(params.sessionId, params.update as RawObject);
      }
      return;
    }
    if (message.method === 'elicitation/complete' && typeof message.params === 'object' && message.params) {
      this.clientSide.completeElicitation(message.params as RawObject);
      return;
    }
    if (!('method' in message) && message.id !== undefined && message.id !== null && 'result' in message) {
      const id = message.id as string | number;
      if (this.outgoingMethods.get(id) === 'session/prompt') this.rawResults.set(id, message.result);
      this.outgoingMethods.delete(id);
    }
  }

  private onOutgoing(message: RawObject): void {
    if (typeof message.method === 'string' && message.id !== undefined && message.id !== null) {
      this.outgoingMethods.set(message.id as string | number, message.method);
    }
  }

  private buildClient(): acp.ClientApp {
    const side = this.clientSide;
    return (
      acp
        .client({ name: CLIENT_INFO.name })
        // Updates are taken raw in `onIncoming`; this handler only stops the SDK calling them unhandled.
        .onNotification('session/update', () => {})
        .onNotification('elicitation/complete', () => {})
        .onRequest('session/request_permission', ({ params, signal }) => side.requestPermission(params, params as unknown as RawObject, signal))
        .onRequest('fs/read_text_file', ({ params }) => side.readTextFile(params))
        .onRequest('fs/write_text_file', ({ params }) => side.writeTextFile(params))
        .onRequest('terminal/create', ({ params }) => side.createTerminal(params))
        .onRequest('terminal/output', ({ params }) => side.terminalOutput(params))
        .onRequest('terminal/wait_for_exit', ({ params, signal }) => side.waitForTerminalExit(params, signal))
        .onRequest('terminal/kill', ({ params }) => side.killTerminal(params))
        .onRequest('terminal/release', ({ params }) => side.releaseTerminal(params))
        .onRequest('elicitation/create', async ({ params, signal }) =>
          (await side.createElicitation(params as unknown as RawObject, signal)) as unknown as acp.CreateElicitationResponse,
        )
    );
  }

  /** Sends a request with a timeout (0: none) and an optional cancel signal. */
  async request<T = unknown>(method: string, params: unknown, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<T> {
    if (this.closed) throw new ProtocolError('The agent is not running.');
    const controller = new AbortController();
    const timeoutMs = options.timeoutMs ?? 0;
    let timedOut = false;
    const timer = timeoutMs > 0 ? setTimeout(() => ((timedOut = true), controller.abort()), timeoutMs) : undefined;
    const onAbort = () => controller.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const exit = this.process.exited.then((info) => {
        throw new ProtocolError(describeExit(info));
      });
      const call = this.connection.agent.request(method, params, {
        cancellationSignal: controller.signal,
        stopWaitingOnCancel: true,
      } as acp.SendRequestOptions) as Promise<T>;
      return await Promise.race([call, exit]);
    } catch (error) {
      if (timedOut) throw new ProtocolError(`The agent did not answer ${method} within ${Math.round(timeoutMs / 1000)} s.`);
      const e = error as { code?: number; message?: string; data?: unknown };
      if (error instanceof ProtocolError) throw error;
      throw new ProtocolError(e?.message ?? String(error), e?.code, e?.data);
    } finally {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  notify(method: string, params: unknown): void {
    if (this.closed) return;
    void this.connection.agent.notify(method, params).catch(() => {});
  }

  async initialize(timeoutMs: number): Promise<acp.InitializeResponse> {
    const result = await this.request<acp.InitializeResponse>(
      'initialize',
      { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: CLIENT_CAPABILITIES, clientInfo: CLIENT_INFO },
      { timeoutMs },
    );
    if (typeof result.protocolVersion !== 'number' || result.protocolVersion > acp.PROTOCOL_VERSION || result.protocolVersion < 1) {
      throw new ProtocolError(
        `The agent speaks ACP protocol version ${String(result.protocolVersion)}; this app speaks version ${acp.PROTOCOL_VERSION}.`,
      );
    }
    this.initializeResult = result;
    return result;
  }

  /**
   * `session/prompt`, returning the raw stop reason even when it is a value the SDK's schema
   * does not know yet (a future ACP stop reason must not turn a finished turn into an error).
   */
  async prompt(params: RawObject, signal?: AbortSignal): Promise<{ stopReason: string; usage?: RawObject | null }> {
    const before = new Set(this.outgoingMethods.keys());
    try {
      const result = await this.request<RawObject>('session/prompt', params, { signal });
      return { stopReason: String(result.stopReason), usage: (result.usage as RawObject) ?? null };
    } catch (error) {
      for (const [id, result] of this.rawResults) {
        if (!before.has(id) && typeof result === 'object' && result && 'stopReason' in result) {
          this.rawResults.delete(id);
          const raw = result as RawObject;
          return { stopReason: String(raw.stopReason), usage: (raw.usage as RawObject) ?? null };
        }
      }
      throw error;
    } finally {
      for (const id of this.rawResults.keys()) if (!before.has(id)) this.rawResults.delete(id);
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.connection.close();
  }

  async stop(): Promise<void> {
    this.close();
    await this.process.stop();
  }
}

export function describeExit(info: ExitInfo): string {
  if (info.spawnError) return `The agent could not be started: ${info.spawnError}`;
  if (info.signal) return `The agent was stopped by signal ${info.signal}.`;
  return `The agent exited with code ${info.code}.`;
}

/** Reports stdout lines that cannot be JSON-RPC, without touching the bytes the SDK reads. */
function tapBytes(input: ReadableStream<Uint8Array>, onGarbage: (line: string) => void): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  let partial = '';
  return input.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        controller.enqueue(chunk);
        const text = partial + decoder.decode(chunk, { stream: true });
        const lines = text.split('\n');
        partial = (lines.pop() ?? '').slice(-65536);
        for (const line of lines) {
          const trimmed = line.trim();
          if (trimmed && !trimmed.startsWith('{')) onGarbage(trimmed.slice(0, 2000));
        }
      },
    }),
  );
}
