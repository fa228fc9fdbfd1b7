import { memoView, obj, str, type Raw } from './read';

/** What the agent said about itself at `initialize` (`agentInfo`, `agentCapabilities`). */
export type AgentInfoView = { name?: string; title?: string; version?: string; raw: Raw };
export const agentInfoView = memoView((raw): AgentInfoView => ({ name: str(raw.name), title: str(raw.title), version: str(raw.version), raw }));

export type AgentCapabilitiesView = {
  loadSession: boolean;
  prompt: { image: boolean; audio: boolean; embeddedContext: boolean };
  mcp: { http: boolean; sse: boolean };
  /** `sessionCapabilities` by name (list, fork, resume, close, …; future ones included). */
  session: Record<string, unknown>;
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
    raw,
  };
});

const EMPTY: Raw = {};
/** The capabilities view of an agent that may not have run yet (null / undefined: nothing advertised). */
export const capabilitiesOf = (raw: Raw | null | undefined): AgentCapabilitiesView => agentCapabilitiesView(raw ?? EMPTY);

/** Whether the agent advertised a session capability (`sessionCapabilities.<name>` present and not false). */
export function hasSessionCapability(capabilities: AgentCapabilitiesView, name: string): boolean {
  const value = capabilities.session[name];
  return value !== undefined && value !== null && value !== false;
}
