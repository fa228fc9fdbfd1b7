import * as acp from '@agentclientprotocol/sdk/unstable';
import { PassThrough, Readable, Writable } from 'node:stream';
import { type AgentHost, type ExitInfo, LineRing, type StartAgent, STDERR_LINES } from '../agents/agentProcess';
import { startAgentFor } from './inProcessAgent';

type RawObject = Record<string, unknown>;

/** The agent's view of its client: requests and notifications to the app. */
export interface FakeClient {
  request(method: string, params: RawObject): Promise<RawObject>;
  notify(method: string, params: RawObject): Promise<void>;
}

export interface FakePromptContext {
  sessionId: string;
  prompt: RawObject[];
  client: FakeClient;
  /** Sends a `session/update` for this session. */
  update(update: RawObject): Promise<void>;
  /** Writes a raw JSON-RPC message line, exactly as given (for what the typed API would refuse). */
  raw(message: RawObject): void;
}

/** What a fake agent does; everything has a plain default. */
export interface FakeAgentScript {
  /** `agentCapabilities` at initialize (default: none beyond the required). */
  capabilities?: RawObject;
  /** The id `session/new` (and `session/fork`) answers with (default `fake_<n>`). */
  newSessionId?: () => string;
  /** A turn; the default says "ok" and ends it. */
  onPrompt?: (context: FakePromptContext) => Promise<RawObject | void>;
}

/**
 * An in-process ACP agent for unit tests, built on the SDK's agent app and connected to the
 * app's real `AgentConnection` over in-memory pipes. It records every request it receives
 * (`calls`), so a test can check what the app sent, and lets a test write raw lines to the
 * app (`raw`), so it can misbehave on purpose.
 */
export class FakeAgent {
  readonly calls: { method: string; params: RawObject }[] = [];
  private hosts: FakeHost[] = [];
  private counter = 0;

  constructor(
    readonly name: string,
    private readonly script: FakeAgentScript = {},
  ) {}

  /** Requests received with this method, in order. */
  callsOf(method: string): RawObject[] {
    return this.calls.filter((call) => call.method === method).map((call) => call.params);
  }

  /** Writes a raw JSON-RPC message to the app from the running agent. */
  raw(message: RawObject): void {
    const host = this.hosts.at(-1);
    if (!host || host.hasExited) throw new Error(`${this.name} is not running`);
    host.writeLine(message);
  }

  start(): AgentHost {
    const host = new FakeHost();
    this.hosts.push(host);
    const record = (method: string, params: unknown) => this.calls.push({ method, params: (params ?? {}) as RawObject });
    const newId = () => this.script.newSessionId?.() ?? `fake_${++this.counter}`;
    const app = acp.agent({ name: this.name }) as unknown as LooseAgentApp;
    const on = (method: string, handler: (params: RawObject, client: FakeClient) => Promise<unknown>) =>
      app.onRequest(method, async ({ params, client }) => {
        record(method, params);
        return handler(params, client);
      });
    on('initialize', async () => ({
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: { ...this.script.capabilities },
      agentInfo: { name: this.name, version: '1.0.0' },
      authMethods: [],
    }));
    on('session/new', async () => ({ sessionId: newId() }));
    on('session/load', async () => ({}));
    on('session/resume', async () => ({}));
    on('session/fork', async () => ({ sessionId: newId() }));
    on('session/close', async () => ({}));
    on('session/prompt', async (params, client) => {
      const sessionId = String(params.sessionId);
      const context: FakePromptContext = {
        sessionId,
        prompt: (params.prompt as RawObject[]) ?? [],
        client,
        update: (update) => client.notify('session/update', { sessionId, update }),
        raw: (message) => host.writeLine(message),
      };
      const onPrompt =
        this.script.onPrompt ??
        (async ({ update }: FakePromptContext) => void (await update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'ok' } })));
      return (await onPrompt(context)) ?? { stopReason: 'end_turn' };
    });
    app.connect(
      acp.ndJsonStream(Writable.toWeb(host.agentOut) as WritableStream<Uint8Array>, Readable.toWeb(host.agentIn) as unknown as ReadableStream<Uint8Array>),
    );
    return host;
  }
}

/**
 * Starts the fake agents by name (a launch spec whose command is `fake:<name>`); any other spec
 * goes to `startAgentFor` (the fixture in-process, or a process).
 */
export function fakeAgents(...agents: FakeAgent[]): StartAgent {
  return (spec, onStderr) => {
    const agent = spec.command.startsWith('fake:') ? agents.find((candidate) => candidate.name === spec.command.slice(5)) : undefined;
    return agent ? agent.start() : startAgentFor(spec, onStderr);
  };
}

interface LooseAgentApp {
  onRequest(method: string, handler: (context: { params: RawObject; client: FakeClient }) => Promise<unknown>): LooseAgentApp;
  connect(stream: acp.Stream): unknown;
}

let nextPid = 2_000_000;

class FakeHost implements AgentHost {
  readonly stderr = new LineRing(STDERR_LINES);
  readonly exited: Promise<ExitInfo>;
  readonly pid = nextPid++;
  /** Client → agent, and agent → client. */
  readonly agentIn = new PassThrough();
  private toClient = new PassThrough();
  readonly agentOut: Writable;
  private exitInfo: ExitInfo | null = null;
  private resolveExit!: (info: ExitInfo) => void;

  constructor() {
    this.exited = new Promise((resolve) => (this.resolveExit = resolve));
    const toClient = this.toClient;
    const isDead = () => this.hasExited;
    this.agentOut = new Writable({
      write(chunk, _encoding, callback) {
        if (!isDead()) toClient.write(chunk);
        callback();
      },
    });
  }

  get hasExited(): boolean {
    return this.exitInfo !== null;
  }

  writeLine(message: RawObject): void {
    if (!this.hasExited) this.toClient.write(`${JSON.stringify(message)}\n`);
  }

  webStreams(): { input: ReadableStream<Uint8Array>; output: WritableStream<Uint8Array> } {
    const agentIn = this.agentIn;
    const isDead = () => this.hasExited;
    const writable = new Writable({
      write(chunk, _encoding, callback) {
        if (!isDead()) agentIn.write(chunk);
        callback();
      },
    });
    return {
      input: Readable.toWeb(this.toClient) as unknown as ReadableStream<Uint8Array>,
      output: Writable.toWeb(writable) as WritableStream<Uint8Array>,
    };
  }

  async stop(): Promise<ExitInfo> {
    if (!this.exitInfo) {
      this.exitInfo = { code: null, signal: 'SIGTERM' };
      this.toClient.end();
      this.agentIn.end();
      this.resolveExit(this.exitInfo);
    }
    return this.exited;
  }
}
