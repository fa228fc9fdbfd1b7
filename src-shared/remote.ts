/**
 * Remote agents (ACP over WebSocket or Streamable HTTP, `docs/REMOTE.md`): the rules both sides
 * of the app share. Pure: no Node, no DOM.
 */

/** How a remote agent's connection is doing, as the person sees it on the agent and its sessions. */
export type RemoteState = 'connecting' | 'connected' | 'reconnecting' | 'offline';

/** What the renderer shows about a remote agent (`AgentSummary.remote`). */
export interface RemoteAgentView {
  url: string;
  transport: 'websocket' | 'http';
  state: RemoteState;
  /** Why the last attempt failed or the connection was lost (one clear sentence). */
  lastError?: string;
  /** When the next reconnect attempt runs (epoch ms), while reconnecting. */
  retryAt?: number;
  /** The host name the agent runs on: where its files and commands are. */
  machine: string;
  /** Whether this computer's files / terminals are offered to the agent (off by default). */
  clientFs: boolean;
  clientTerminal: boolean;
  /** Set when plain ws/http to a non-loopback address was allowed: why that is risky. */
  insecureWarning?: string;
}

/** Loopback names and addresses (IPv4 127/8, IPv6 ::1, `localhost`). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  if (/^::ffff:127\.\d+\.\d+\.\d+$/.test(host)) return true;
  return /^127\.\d+\.\d+\.\d+$/.test(host);
}

export type RemoteUrlCheck =
  { ok: true; transport: 'websocket' | 'http'; encrypted: boolean; machine: string; warning?: string } | { ok: false; error: string };

/**
 * Whether the app may connect to `url`: ws/wss/http/https only; plain ws/http only to loopback
 * unless the person allowed it for this agent (then with a warning saying why it is risky).
 */
export function checkRemoteUrl(url: string, allowInsecure = false): RemoteUrlCheck {
  // No URL class here (src-shared has neither the DOM nor Node): scheme://[userinfo@]host[:port][/…].
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([/?#].*)?$/.exec(url.trim());
  if (!match) return { ok: false, error: `"${url}" is not a URL. Use ws://, wss://, http:// or https://.` };
  const scheme = match[1].toLowerCase();
  if (!['ws', 'wss', 'http', 'https'].includes(scheme))
    return { ok: false, error: `A remote agent's URL must start with ws://, wss://, http:// or https:// (not ${scheme}://).` };
  const authority = match[2];
  if (authority.includes('@')) return { ok: false, error: 'Put credentials in a header (for example Authorization), not in the URL: URLs end up in logs.' };
  const hostMatch = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(authority);
  if (!hostMatch) return { ok: false, error: `"${url}" has no valid host name.` };
  const parsed = { hostname: hostMatch[1] };
  const transport = scheme === 'ws' || scheme === 'wss' ? 'websocket' : 'http';
  const encrypted = scheme === 'wss' || scheme === 'https';
  const machine = parsed.hostname.replace(/^\[|\]$/g, '');
  if (encrypted || isLoopbackHost(parsed.hostname)) return { ok: true, transport, encrypted, machine };
  const why =
    `${scheme}:// is not encrypted: anyone on the network between you and ${machine} can read your prompts, the agent's answers ` +
    `and your access token, and can change what the agent is told. Use ${scheme}s:// (for example behind a TLS proxy) or an SSH tunnel to a loopback port.`;
  if (!allowInsecure)
    return {
      ok: false,
      error: `Refused to connect to ${url}. ${why} To connect anyway, allow unencrypted connections for this agent ("allowInsecure": true).`,
    };
  return { ok: true, transport, encrypted, machine, warning: why };
}

/** The secret store key under which a remote agent's secret header values are kept. */
export function agentHeadersKey(agentId: string): string {
  return `agent-headers:${agentId}`;
}

/** The largest ACP message sent to or accepted from a remote agent (the SDK server's default request body limit). */
export const REMOTE_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** Where and how to reach a remote agent (from its settings entry, secret headers merged in by main). */
export interface RemoteEndpoint {
  url: string;
  headers: Record<string, string>;
  allowInsecure: boolean;
  clientFs: boolean;
  clientTerminal: boolean;
  /** Seconds without data (while an answer is awaited) before the connection counts as dead (default 45). */
  stallSeconds?: number;
}
