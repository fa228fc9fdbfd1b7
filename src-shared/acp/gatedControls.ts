import type { AgentCapabilities, ConfigOption } from '../session/controls';

/**
 * "Why is this control missing?" (issue 27): every control of the app that depends on something
 * the agent advertises, with the capability that enables it and whether this agent advertised
 * it, in one table. Controls the app offers the agent (client capabilities: its file system,
 * terminals, elicitation) are listed too, with who decides.
 *
 * References: protocol-v1-initialization (agentCapabilities, promptCapabilities,
 * mcpCapabilities), protocol-v1-session-setup (load), the session list/resume/close/fork/delete
 * RFDs (sessionCapabilities), protocol-v1-session-modes and -config-options (the session's
 * answer), rfds-boolean-config-option, rfds-logout-method, rfds-elicitation, rfds-v2-overview
 * (v2 removes the client file system and terminals, and MCP over SSE).
 */
export interface GatedControl {
  /** The control as a person sees it. */
  control: string;
  /** The capability (or answer field) that enables it, in the protocol's spelling. */
  capability: string;
  /** Whether it is available with this agent (and session). */
  available: boolean;
  /** Who decides: the agent's capabilities, the session's answer, or the app's offer to the agent. */
  source: 'agent' | 'session' | 'app';
  /** Why, when the answer needs more than yes or no. */
  note?: string;
}

/** What the table reads: the agent's capabilities (v1 shape), the version spoken, and the open session's answer. */
export interface GatedInput {
  capabilities: AgentCapabilities | null | undefined;
  protocolVersion?: number | null;
  /** Whether the agent has run yet (before, nothing is known). */
  known: boolean;
  session?: { modes: boolean; configOptions: readonly ConfigOption[] } | null;
}

/** An agent that advertised nothing. */
const NOTHING: AgentCapabilities = {
  loadSession: false,
  promptCapabilities: { image: false, audio: false, embeddedContext: false },
  mcpCapabilities: { http: false, sse: false },
  sessionCapabilities: [],
  auth: { logout: false },
};

export function gatedControls(input: GatedInput): GatedControl[] {
  const caps = input.capabilities ?? NOTHING;
  const v2 = input.protocolVersion === 2;
  const session = (name: string) => caps.sessionCapabilities.includes(name);
  const options = input.session?.configOptions ?? [];
  const models = options.filter((option) => option.category === 'model' || option.category === 'model_config');
  const rows: GatedControl[] = [
    {
      control: 'Reopen a past session with its transcript',
      capability: v2 ? 'session.resume (with replay)' : 'agentCapabilities.loadSession',
      available: caps.loadSession,
      source: 'agent',
    },
    { control: 'Resume a session without its transcript', capability: 'sessionCapabilities.resume', available: session('resume'), source: 'agent' },
    { control: 'Fork a session', capability: 'sessionCapabilities.fork', available: session('fork'), source: 'agent' },
    { control: "List the agent's sessions", capability: 'sessionCapabilities.list', available: session('list'), source: 'agent' },
    { control: 'Close a session on the agent', capability: 'sessionCapabilities.close', available: session('close'), source: 'agent' },
    { control: "Delete a session from the agent's list", capability: 'sessionCapabilities.delete', available: session('delete'), source: 'agent' },
    {
      control: 'Extra workspace folders',
      capability: 'sessionCapabilities.additionalDirectories',
      available: session('additionalDirectories'),
      source: 'agent',
    },
    {
      control: 'Mode picker',
      capability: v2 ? 'none in ACP v2 (modes are config options)' : 'modes in the session answer',
      available: !v2 && Boolean(input.session?.modes),
      source: 'session',
    },
    {
      control: 'Model picker and other session options',
      capability: 'configOptions in the session answer',
      available: options.length > 0,
      source: 'session',
      note: options.length
        ? `${options.length} option${options.length === 1 ? '' : 's'}${models.length ? ', a model picker among them' : ', no model picker (no option of category model or model_config)'}`
        : undefined,
    },
    {
      control: 'On/off session options',
      capability: 'configOptions of type boolean (the app offers configOptions.boolean)',
      available: options.some((option) => option.type === 'boolean'),
      source: 'session',
    },
    { control: 'Attach images', capability: 'promptCapabilities.image', available: caps.promptCapabilities.image, source: 'agent' },
    { control: 'Attach audio', capability: 'promptCapabilities.audio', available: caps.promptCapabilities.audio, source: 'agent' },
    {
      control: 'Attach files as embedded context (@-mentions send their text)',
      capability: 'promptCapabilities.embeddedContext',
      available: caps.promptCapabilities.embeddedContext,
      source: 'agent',
      note: caps.promptCapabilities.embeddedContext ? undefined : '@-mentions are sent as links',
    },
    {
      control: "Terminals the agent runs in the app's workspace",
      capability: 'clientCapabilities.terminal (offered by the app)',
      available: !v2,
      source: 'app',
      note: v2 ? 'ACP v2 has no client terminals' : 'the agent decides whether to use them',
    },
    {
      control: "The agent reads and writes files through the app (unsaved edits, the workspace's rules)",
      capability: 'clientCapabilities.fs (offered by the app)',
      available: !v2,
      source: 'app',
      note: v2 ? 'ACP v2 has no client file system' : 'the agent decides whether to use it',
    },
    {
      control: 'Forms and links the agent asks you to fill in or open',
      capability: 'clientCapabilities.elicitation (offered by the app: form, url)',
      available: true,
      source: 'app',
      note: 'the agent decides whether to ask',
    },
    {
      control: 'Sign out',
      capability: v2 ? 'auth/logout (required with auth methods)' : 'agentCapabilities.auth.logout',
      available: caps.auth.logout,
      source: 'agent',
    },
    { control: 'MCP servers over stdio', capability: v2 ? 'session.mcp.stdio' : 'always (ACP v1)', available: true, source: 'agent' },
    { control: 'MCP servers over HTTP', capability: 'mcpCapabilities.http', available: caps.mcpCapabilities.http, source: 'agent' },
    {
      control: 'MCP servers over SSE',
      capability: v2 ? 'none in ACP v2' : 'mcpCapabilities.sse',
      available: !v2 && caps.mcpCapabilities.sse,
      source: 'agent',
    },
  ];
  if (!input.known) return rows.map((row) => (row.source === 'app' ? row : { ...row, available: false, note: 'not known until the agent has started' }));
  return rows;
}
