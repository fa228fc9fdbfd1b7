/**
 * One clear sentence for each way a connection to a remote agent fails (docs/REMOTE.md): the
 * SDK's transports and Node report them as HTTP statuses, socket error codes or close codes,
 * often wrapped (`fetch failed` → cause → code).
 */

interface Failure {
  status?: number;
  code?: string;
  text: string;
  name?: string;
}

/** The error and its causes, flattened: the first status and code found, and every message. */
function unwrap(error: unknown): Failure {
  const failure: Failure = { text: '' };
  const texts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if (typeof current === 'object') {
      const e = current as { status?: unknown; code?: unknown; message?: unknown; name?: unknown; cause?: unknown; errors?: unknown };
      if (failure.status === undefined && typeof e.status === 'number') failure.status = e.status;
      if (failure.code === undefined && typeof e.code === 'string') failure.code = e.code;
      if (failure.name === undefined && typeof e.name === 'string' && e.name !== 'Error' && e.name !== 'TypeError') failure.name = e.name;
      if (typeof e.message === 'string' && e.message) texts.push(e.message);
      // An AggregateError (happy eyeballs: IPv4 and IPv6 both refused) keeps its codes in `errors`.
      current = e.cause ?? (Array.isArray(e.errors) ? e.errors[0] : undefined);
    } else {
      texts.push(String(current));
      current = undefined;
    }
  }
  failure.text = texts.join(' ');
  if (failure.status === undefined) {
    const match = /Unexpected server response: (\d{3})|(?:failed|rejected)[^:]*: (\d{3})\b/.exec(failure.text);
    if (match) failure.status = Number(match[1] ?? match[2]);
  }
  return failure;
}

const TLS_CODES = /^(CERT_|ERR_TLS_|ERR_SSL_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(VERIFY|GET)_|EPROTO|HOSTNAME_MISMATCH)/;

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
}

/**
 * Why the connection to `url` failed, in words a person can act on. `stalled` is the number of
 * seconds without data when the watchdog gave up.
 */
export function describeRemoteFailure(error: unknown, url: string): string {
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    // Not a URL: name it as given.
  }
  const f = unwrap(error);
  if (f.name === 'MessageTooLargeError' || /exceeds the configured (\d+) byte limit/.test(f.text)) {
    const limit = /(\d+) byte limit/.exec(f.text)?.[1];
    return `The remote agent at ${host} sent a message larger than the ${limit ? megabytes(Number(limit)) : 'size'} limit of one message; the connection was closed.`;
  }
  switch (f.status) {
    case 401:
      return `The remote agent at ${host} refused the credentials (401 Unauthorized). Check its token or Authorization header; the app does not retry with the same credentials.`;
    case 403:
      return `The remote agent at ${host} refused access (403 Forbidden): the token is not allowed there, or the server refuses this client's origin.`;
    case 409:
      return `The remote agent at ${host} refused this session's event stream (409 Conflict): another window or app is attached to the session, or it must be opened again.`;
    case 404:
    case 410:
      return `The remote agent at ${host} no longer knows this connection (${f.status}): the server restarted or dropped it.`;
    case 413:
      return `The remote agent at ${host} refused a message as too large (413).`;
    case 426:
      return `The server at ${host} does not take WebSocket connections (426): use its http:// or https:// URL.`;
    case undefined:
      break;
    default:
      if (f.status >= 400) return `The remote agent at ${host} answered HTTP ${f.status}: ${f.text.slice(0, 300)}`;
  }
  const code = f.code ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME' || /getaddrinfo/.test(f.text))
    return `Could not find the host ${host} (DNS lookup failed). Check the URL and your network.`;
  if (code === 'ECONNREFUSED' || /ECONNREFUSED/.test(f.text)) return `Nothing is listening at ${host} (connection refused): is the agent server running?`;
  if (TLS_CODES.test(code) || /certificate|SSL routines|TLS|wrong version number/i.test(f.text))
    return `The secure (TLS) connection to ${host} failed: ${f.text.slice(0, 200)}. Check that the server's certificate is valid for this name and trusted here, and that the URL's scheme matches the server (wss/https only where TLS is served).`;
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || /timed out|timeout/i.test(f.text))
    return `The remote agent at ${host} did not answer in time (timed out).`;
  if (/SSE stream closed/.test(f.text)) return `The remote agent at ${host} closed its event stream (the server stopped or dropped the connection).`;
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || /socket hang up|other side closed|terminated/i.test(f.text))
    return `The connection to the remote agent at ${host} was cut (the network or the server dropped it).`;
  return `The connection to the remote agent at ${host} failed: ${f.text.slice(0, 300) || 'no reason given'}.`;
}

/** Whether retrying cannot help without the person changing something (credentials, URL, certificate). */
export function isPermanentFailure(message: string): boolean {
  return /\(401 Unauthorized\)|\(403 Forbidden\)|\(426\)|TLS\) connection|Refused to connect to/.test(message);
}

/**
 * The SDK's Streamable HTTP client fails a single request with a JSON-RPC error of its own
 * (-32603, `data: { status, body }`, a message starting "ACP "): a 409 on the session's stream,
 * a POST refused, the session stream closed. Said as a transport failure; null for an agent's answer.
 */
export function remoteRequestFailure(error: { code: number | null; message: string | null; data: unknown }, url: string): string | null {
  const status = typeof error.data === 'object' && error.data !== null ? (error.data as { status?: unknown }).status : undefined;
  if (error.code !== -32603 || !(typeof status === 'number' || /^ACP /.test(error.message ?? ''))) return null;
  return describeRemoteFailure({ status, message: error.message ?? '' }, url);
}
