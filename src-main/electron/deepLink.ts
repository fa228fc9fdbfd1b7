import { DEEP_LINK_SCHEME } from './appIdentity';

/** What a deep link asks for. Only one shape exists: open the catalog on an agent. */
export interface DeepLink {
  kind: 'installAgent';
  agentId: string;
}

/**
 * Agent ids a link may name: lowercase letters, digits, dot, dash, underscore; at most 100
 * characters; starting with a letter or digit (so never `.`, `..` or `-flag`).
 */
const AGENT_ID = /^[a-z0-9][a-z0-9._-]{0,99}$/;

/**
 * Parses `acp-desktop://install/<agent-id>` (a trailing slash is tolerated). Anything else —
 * another host or scheme, more path segments, a query, a fragment, credentials, a port,
 * percent-escapes, an unsafe id — is refused with null. Links come from web pages, so
 * nothing in them is trusted beyond this shape.
 */
export function parseDeepLink(url: unknown): DeepLink | null {
  if (typeof url !== 'string' || url.length > 200) return null;
  const scheme = `${DEEP_LINK_SCHEME}:`;
  const rest = '//install/';
  // The scheme is case-insensitive (RFC 3986 §3.1); the rest is matched exactly.
  if (url.slice(0, scheme.length).toLowerCase() !== scheme || url.slice(scheme.length, scheme.length + rest.length) !== rest) return null;
  let agentId = url.slice(scheme.length + rest.length);
  if (agentId.endsWith('/')) agentId = agentId.slice(0, -1);
  return AGENT_ID.test(agentId) ? { kind: 'installAgent', agentId } : null;
}

/**
 * The deep link among command-line arguments (Windows and Linux hand the URL to the app as an
 * argument, at first launch and to the running instance via `second-instance`).
 */
export function deepLinkFromArgv(argv: readonly string[]): DeepLink | null {
  const scheme = `${DEEP_LINK_SCHEME}:`;
  for (const arg of argv) {
    if (typeof arg === 'string' && arg.slice(0, scheme.length).toLowerCase() === scheme) return parseDeepLink(arg);
  }
  return null;
}
