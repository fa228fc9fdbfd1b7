import { isObject, memoView, num, obj, str, type Raw } from './read';

/** What the agent said about itself at `initialize` (`agentInfo`, `agentCapabilities`). */
export type AgentInfoView = { name?: string; title?: string; version?: string; raw: Raw };
export const agentInfoView = memoView((raw): AgentInfoView => ({ name: str(raw.name), title: str(raw.title), version: str(raw.version), raw }));

export type AgentCapabilitiesView = {
  loadSession: boolean;
  prompt: { image: boolean; audio: boolean; embeddedContext: boolean };
  mcp: { http: boolean; sse: boolean };
  /** `sessionCapabilities` by name (list, fork, resume, close, …; future ones included). */
  session: Record<string, unknown>;
  /** `auth.logout` advertised (rfds-logout). */
  auth: { logout: boolean };
  raw: Raw;
};

export const agentCapabilitiesView = memoView((raw): AgentCapabilitiesView => {
  const prompt = obj(raw.promptCapabilities);
  const mcp = obj(raw.mcpCapabilities);
  return {
    loadSession: raw.loadSession === true,
    prompt: { image: prompt.image === true, audio: prompt.audio === true, embeddedContext: prompt.embeddedContext === true },
    mcp: { http: mcp.http === true, sse: mcp.sse === true },
    session: obj(raw.sessionCapabilities),
    auth: { logout: present(obj(raw.auth).logout) },
    raw,
  };
});

const EMPTY: Raw = {};
/** The capabilities view of an agent that may not have run yet (null / undefined: nothing advertised). */
export const capabilitiesOf = (raw: Raw | null | undefined): AgentCapabilitiesView => agentCapabilitiesView(raw ?? EMPTY);

/** Whether the agent advertised a session capability (`sessionCapabilities.<name>` present and not false). */
export function hasSessionCapability(capabilities: AgentCapabilitiesView, name: string): boolean {
  return present(capabilities.session[name]);
}

/** Whether a restored session can go on: `session/resume` or `session/load` is offered. */
export function canReconnect(capabilities: AgentCapabilitiesView): boolean {
  return capabilities.loadSession || hasSessionCapability(capabilities, 'resume');
}

/** A capability is advertised by any value but absent, null or false (an empty object counts). */
function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== false;
}

/** An `initialize` answer: the objects the app keeps (absent or not an object: null), the value beside them. */
export type InitializeView = {
  protocolVersion: number | null;
  agentInfo: Raw | null;
  agentCapabilities: Raw | null;
  authMethods: unknown;
  meta: Raw | null;
  raw: Raw;
};

export function initializeView(raw: Raw): InitializeView {
  const objectOrNull = (value: unknown): Raw | null => (isObject(value) ? value : null);
  return {
    protocolVersion: num(raw.protocolVersion) ?? null,
    agentInfo: objectOrNull(raw.agentInfo),
    agentCapabilities: objectOrNull(raw.agentCapabilities),
    authMethods: raw.authMethods,
    meta: objectOrNull(raw._meta),
    raw,
  };
}
