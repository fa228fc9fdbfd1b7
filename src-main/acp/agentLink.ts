import type { InitializeResponse } from '@agentclientprotocol/sdk/unstable';
import type { McpServerSetting } from '../../src-shared/settings';
import type { ExitInfo } from '../process/agentProcess';
import type { DecodedSession } from './dialects/dialect';
import type { ConfigOption, TurnUsage } from '../../src-shared/session/controls';

import type { RawObject } from '../../src-shared/session/raw';

/** How a `session/prompt` ended: the raw stop reason (future values kept) and usage. */
export interface PromptOutcome {
  stopReason: string;
  usage?: TurnUsage | null;
  meta?: unknown;
  /**
   * The turn's end is already in the session's events (an agent that reports turns by state
   * updates): the session must not record a second one. `error` is the error such an end
   * carried (code -32000: sign-in needed).
   */
  endedInLog?: boolean;
  error?: { code?: number; message?: string; data?: unknown } | null;
}

/** How a session is set up on the agent: new, or an existing one with (`load`) or without (`resume`) its transcript. */
export type OpenHow = 'new' | 'load' | 'resume';

/** One row of an agent's `session/list`, decoded (a row without a session id is dropped). */
export interface AgentSessionInfo {
  sessionId: string;
  cwd?: string;
  title?: string;
  /** ISO 8601, as the agent sent it. */
  updatedAt?: string;
}

/**
 * What the session layer needs from one agent's connection (Zed's `AgentConnection` trait in
 * `crates/acp_thread/src/connection.rs`): requests with timeouts and cancel, the agent's
 * capabilities as accessors, and its exit. `AgentConnection` implements it over the SDK; the
 * session layer depends on this interface only.
 */
export interface AgentLink {
  /** The `initialize` answer in the v1 shape, whatever version is spoken (see dialects/profile.ts). */
  readonly initializeResult: InitializeResponse | null;
  /** The protocol version in use (shown in the agent and session info; nothing branches on it). */
  readonly protocolVersion: number | null;
  readonly agentCapabilities: RawObject;
  readonly promptCapabilities: RawObject;
  readonly supportsLogout: boolean;
  readonly exited: Promise<ExitInfo>;
  readonly isClosed: boolean;
  /** The agent's process id (a stand-in number for an agent running in this process). */
  readonly pid: number | undefined;
  /** Whether the agent advertised `sessionCapabilities[name]` (`list`, `resume`, `close`, `fork`, …). */
  supportsSession(name: string): boolean;
  /**
   * Sends a request with a timeout (0: none), an optional cancel signal, and optionally the app
   * session it is sent for (to route request-scoped elicitations). Resolves with the raw result.
   */
  request<T = unknown>(method: string, params: RawObject, options?: { timeoutMs?: number; signal?: AbortSignal; owner?: string }): Promise<T>;
  notify(method: string, params: RawObject): void;
  /** `initialize`; refuses a protocol version this app cannot speak. */
  initialize(timeoutMs: number): Promise<InitializeResponse>;
  prompt(params: RawObject, signal?: AbortSignal): Promise<PromptOutcome>;
  listSessions(cwd?: string, cursor?: string): Promise<{ sessions: AgentSessionInfo[]; nextCursor: string | null }>;
  deleteSession(acpSessionId: string): Promise<void>;
  /** Ends the agent's session (only where it advertises closing). */
  closeSession(acpSessionId: string): Promise<void>;
  /** `session/fork`; answers the new session's id (refused when the agent answers without one). */
  forkSession(params: RawObject): Promise<{ sessionId: string }>;
  logout(): Promise<void>;
  /** Signs in with one of the agent's auth methods. */
  authenticate(methodId: string, owner?: string): Promise<void>;
  /** The MCP servers from settings this agent can take, in the shape it wants. */
  encodeMcpServers(servers: readonly McpServerSetting[]): RawObject[];
  /** `session/new`, or an existing session resumed (`resume`) or replayed (`load`); `params` has `cwd`, `mcpServers`, … and `sessionId` for an existing one. */
  openSession(how: OpenHow, params: RawObject, owner?: string): Promise<DecodedSession>;
  /** Sets a config option; resolves with the options the agent answered with (null: none). */
  setConfigOption(acpSessionId: string, configId: string, value: string | boolean): Promise<ConfigOption[] | null>;
  setMode(acpSessionId: string, modeId: string): Promise<void>;
  /** Asks the agent to end the running turn. */
  cancelTurn(acpSessionId: string): void;
  /**
   * Withdraws the app's own requests to the agent for this session that are still waiting (not
   * the prompt: `session/cancel` ends it), each with `$/cancel_request`; how many (issue 27).
   */
  cancelRequests?(acpSessionId: string): number;
  /** Stops one piece of work the agent owns (its terminal or a tool call), where it offers that. */
  cancelAgentWork(acpSessionId: string, work: { terminalId: string } | { toolCallId: string }): Promise<void>;
  /** The agent's last stderr lines (for error messages and the agent log). */
  stderrTail(count?: number): string[];
  stop(): Promise<void>;
}
