import type * as acp from '@agentclientprotocol/sdk/unstable';
import type { McpServerSetting } from '../../src-shared/settings';
import type { SessionEventBody } from '../../src-shared/session/events';
import type { AgentLink, AgentSessionInfo, OpenHow, PromptOutcome } from '../acp/agentLink';
import type { DecodedPermission, DecodedSession } from '../acp/dialects/dialect';
import type { ConnectionRequest } from '../agents/agentManager';
import type { ExitInfo } from '../process/agentProcess';
import type { ConfigOption } from '../../src-shared/session/controls';

/** What a stub turn can do: report events (already the app's own) and ask for permission. */
export interface StubTurn {
  acpSessionId: string;
  prompt: acp.ContentBlock[];
  /** Reports what the agent did, as the dialect would have decoded it. */
  report(...events: SessionEventBody[]): void;
  /** Asks the person; resolves with the option chosen (null: cancelled). */
  askPermission(permission: DecodedPermission): Promise<string | null>;
}

export interface StubScript {
  agentCapabilities?: acp.AgentCapabilities;
  /** A turn; resolves with its stop reason (default `end_turn`). */
  onPrompt?: (turn: StubTurn) => Promise<string | void>;
}

let nextStub = 0;

/**
 * A typed stand-in for an agent's connection (in the spirit of Zed's `StubAgentConnection`):
 * no SDK, no wire, no process. It speaks the app's events directly to the session layer's
 * client side, so session tests say what the agent does in the app's terms. Give it to the
 * core as `connectAgent: stubAgents(script)`.
 */
export class StubAgentLink implements AgentLink {
  readonly protocolVersion = 1;
  readonly pid = undefined;
  /** What the session layer asked of the agent, in order (params as given). */
  readonly sent: { method: string; params: unknown }[] = [];
  initializeResult: acp.InitializeResponse | null = null;
  isClosed = false;
  readonly exited: Promise<ExitInfo>;
  private exit!: (info: ExitInfo) => void;
  private sessions = 0;

  constructor(
    private readonly request_: ConnectionRequest,
    private readonly script: StubScript = {},
  ) {
    this.exited = new Promise((resolve) => (this.exit = resolve));
  }

  get agentCapabilities(): acp.AgentCapabilities {
    return this.script.agentCapabilities ?? {};
  }
  get promptCapabilities(): acp.PromptCapabilities {
    return {};
  }
  get supportsLogout(): boolean {
    return false;
  }
  supportsSession(): boolean {
    return false;
  }

  async initialize(): Promise<acp.InitializeResponse> {
    this.initializeResult = {
      protocolVersion: 1,
      agentInfo: { name: this.request_.agent.name, version: '0' },
      agentCapabilities: this.agentCapabilities,
      authMethods: [],
    };
    return this.initializeResult;
  }

  async openSession(how: OpenHow, params: acp.NewSessionRequest | acp.LoadSessionRequest | acp.ResumeSessionRequest): Promise<DecodedSession> {
    this.sent.push({ method: `open:${how}`, params });
    const acpSessionId = 'sessionId' in params ? params.sessionId : `stub_${++nextStub}_${++this.sessions}`;
    return { acpSessionId, configOptions: null, modes: null, models: null, events: [] };
  }

  async prompt(params: acp.PromptRequest, signal?: AbortSignal): Promise<PromptOutcome> {
    this.sent.push({ method: 'prompt', params });
    const acpSessionId = params.sessionId;
    const client = this.request_.clientSide;
    let asked = 0;
    const turn: StubTurn = {
      acpSessionId,
      prompt: params.prompt,
      report: (...events) => client.onSessionUpdate(acpSessionId, events, {}),
      askPermission: async (permission) => {
        const answer = await client.requestPermission({ sessionId: acpSessionId }, signal ?? new AbortController().signal, (requestId) => ({
          ...permission,
          toolCallId: permission.toolCallId || `permission-${requestId}-${++asked}`,
        }));
        return answer.outcome.outcome === 'selected' ? answer.outcome.optionId : null;
      },
    };
    const stopReason = (await this.script.onPrompt?.(turn)) ?? 'end_turn';
    return { stopReason };
  }

  async request<T>(method: string, params: unknown): Promise<T> {
    this.sent.push({ method, params });
    return {} as T;
  }
  notify(method: string, params: unknown): void {
    this.sent.push({ method, params });
  }
  async listSessions(): Promise<{ sessions: AgentSessionInfo[]; nextCursor: string | null }> {
    return { sessions: [], nextCursor: null };
  }
  async deleteSession(): Promise<void> {}
  async closeSession(): Promise<void> {}
  async forkSession(): Promise<{ sessionId: string }> {
    throw new Error('The stub agent cannot fork sessions.');
  }
  async logout(): Promise<void> {}
  async authenticate(): Promise<void> {}
  encodeMcpServers(_servers: readonly McpServerSetting[]): acp.McpServer[] {
    return [];
  }
  async setConfigOption(): Promise<ConfigOption[] | null> {
    return null;
  }
  async setMode(): Promise<void> {}
  cancelTurn(acpSessionId: string): void {
    this.sent.push({ method: 'cancel', params: { sessionId: acpSessionId } });
  }
  async cancelAgentWork(): Promise<void> {}
  stderrTail(): string[] {
    return [];
  }
  async stop(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    this.exit({ code: 0, signal: null });
  }
}

/** The core's `connectAgent` for stub agents: every agent's connection is a `StubAgentLink` running `script`. */
export function stubAgents(script: StubScript, made: StubAgentLink[] = []) {
  return (request: ConnectionRequest): AgentLink => {
    const link = new StubAgentLink(request, script);
    made.push(link);
    return link;
  };
}
