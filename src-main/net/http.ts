/** HTTP helpers shared by the registry client and the installer. */

/** Reads a response body as text, refusing bodies over `limit` bytes. */
export async function readLimited(response: Response, limit: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > limit) {
    void response.body?.cancel();
    throw new Error(`it is ${declared} bytes; the limit is ${limit}`);
  }
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new Error(`it is over the limit of ${limit} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const unverified = (host: string) => `the certificate of ${host} could not be verified (a proxy in between?)`;

/** What a network error code means, for a person (the code stays in the message for support). */
const PLAIN: Record<string, (host: string) => string> = {
  ENOTFOUND: (host) => `${host} could not be found: no internet connection, or its name is blocked`,
  EAI_AGAIN: (host) => `${host} could not be looked up: no internet connection, or name lookup is down`,
  ECONNREFUSED: (host) => `nothing answers at ${host}`,
  ECONNRESET: (host) => `the connection to ${host} was cut`,
  ETIMEDOUT: (host) => `${host} did not answer in time`,
  UND_ERR_CONNECT_TIMEOUT: (host) => `${host} did not answer in time`,
  ENETUNREACH: (host) => `${host} cannot be reached from this network`,
  EHOSTUNREACH: (host) => `${host} cannot be reached from this network`,
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: unverified,
  SELF_SIGNED_CERT_IN_CHAIN: unverified,
  DEPTH_ZERO_SELF_SIGNED_CERT: unverified,
  CERT_HAS_EXPIRED: (host) => `the certificate of ${host} has expired`,
};

function hostOf(url: string | undefined, hostname: string | undefined): string {
  if (hostname) return hostname;
  try {
    return url ? new URL(url).host : 'the server';
  } catch {
    return 'the server';
  }
}

/**
 * `fetch failed` says nothing: dig out the cause (ENOTFOUND, ECONNREFUSED, a timeout) and say
 * what it means for a person: `ENOTFOUND: github.com could not be found: no internet connection, …`.
 */
export function describeFetchError(error: unknown, url?: string): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string; hostname?: string } };
  if (e?.name === 'TimeoutError') return 'the request timed out';
  if (e?.name === 'AbortError') return 'cancelled';
  const cause = e?.cause;
  if (cause?.code && PLAIN[cause.code]) return `${cause.code}: ${PLAIN[cause.code](hostOf(url, cause.hostname))}`;
  if (cause?.code) return `${cause.code}${cause.message && !cause.message.includes(cause.code) ? ` (${cause.message})` : ''}`;
  return cause?.message ?? e?.message ?? String(error);
}
