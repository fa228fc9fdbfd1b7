import type * as acp from '@agentclientprotocol/sdk/unstable';
import type { SessionEventBody } from '../../src-shared/session/events';
import { acpErrorView } from '../../src-shared/acp/error';
import { KNOWN_ELICITATION_MODES } from '../../src-shared/acp/known';
import { LEGACY_TERMINAL_AUTH_CAPABILITY } from '../quirks/claudeCodeAcp';
import { TERMINAL_OUTPUT_CAPABILITY } from '../quirks/codexAcp';
import { AcpErrorCode } from '../errors/errors';
import type { DecodedPermission } from './dialects/dialect';

import type { RawObject } from '../../src-shared/session/raw';

/** What the client side of the protocol does for the agent; implemented by the session layer. */
export interface ClientSide {
  /**
   * Every `session/update`, in arrival order, called synchronously (order matters), as the
   * app's events the protocol version's dialect decoded it into (`src-shared/session/agentEvents.ts`).
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

/** Elicitation modes this client can show; others are refused with -32602 (rfds-elicitation). */
export const ELICITATION_MODES = new Set<string>(KNOWN_ELICITATION_MODES);

/** `auth_required` (-32000) from any request: starts the sign-in flow. */
export function isAuthRequired(error: unknown): boolean {
  return acpErrorView(error).code === AcpErrorCode.authRequired;
}

/**
 * The client capabilities for one agent. A remote agent runs on another machine: this
 * computer's files and terminals are offered only when the person turned them on for it (they
 * would act here, not where the agent is), and the terminal sign-in (which runs the agent's own
 * command here) is never offered.
 */
export function clientCapabilitiesFor(remote?: { clientFs: boolean; clientTerminal: boolean }): acp.ClientCapabilities {
  if (!remote) return CLIENT_CAPABILITIES;
  return {
    fs: { readTextFile: remote.clientFs, writeTextFile: remote.clientFs },
    terminal: remote.clientTerminal,
    session: CLIENT_CAPABILITIES.session,
    elicitation: CLIENT_CAPABILITIES.elicitation,
    ...(remote.clientTerminal ? { _meta: { ...TERMINAL_OUTPUT_CAPABILITY } } : {}),
  };
}
