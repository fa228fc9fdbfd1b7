import * as acp from '@agentclientprotocol/sdk/unstable';
import type { RawObject } from '../../src-shared/session/raw';
import type { AgentHost, StartAgent } from '../process/agentProcess';
import { webByteStreams } from '../process/webStreams';
import { InMemoryAgent, startAgentFor } from './inProcessAgent';

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
 * app's real `AgentConnection` over the same in-memory agent host the scripted fixture runs on
 * (`InMemoryAgent`, inProcessAgent.ts). It records every request it receives
 * (`calls`), so a test can check what the app sent, and lets a test write raw lines to the
 * app (`raw`), so it can misbehave on purpose.
 */
export class FakeAgent {
  readonly calls: { method: string; params: RawObject }[] = [];
  private hosts: InMemoryAgent[] = [];
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
    const host = new InMemoryAgent();
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
    const { input, output } = webByteStreams(host.toAgent, host.agentOut);
    app.connect(acp.ndJsonStream(output, input));
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
