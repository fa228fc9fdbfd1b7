import type { InitializeResponse } from '@agentclientprotocol/sdk/unstable';
import type { ExitInfo } from '../agents/agentProcess';

type RawObject = Record<string, unknown>;

/** How a `session/prompt` ended: the raw stop reason (future values kept) and usage. */
export interface PromptOutcome {
  stopReason: string;
  usage?: RawObject | null;
  meta?: unknown;
}

/**
 * What the session layer needs from one agent's connection (Zed's `AgentConnection` trait in
 * `crates/acp_thread/src/connection.rs`): requests with timeouts and cancel, the agent's
 * capabilities as accessors, and its exit. `AgentConnection` implements it over the SDK; the
 * session layer depends on this interface only.
 */
export interface AgentLink {
  readonly initializeResult: InitializeResponse | null;
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
  listSessions(cwd?: string, cursor?: string): Promise<{ sessions: RawObject[]; nextCursor: string | null }>;
  deleteSession(acpSessionId: string): Promise<void>;
  forkSession(params: RawObject): Promise<RawObject>;
  logout(): Promise<void>;
  /** The agent's last stderr lines (for error messages and the agent log). */
  stderrTail(count?: number): string[];
  stop(): Promise<void>;
}
