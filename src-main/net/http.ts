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

/** `fetch failed` says nothing: dig out the cause (ENOTFOUND, ECONNREFUSED, a timeout). */
export function describeFetchError(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError') return 'the request timed out';
  if (e?.name === 'AbortError') return 'cancelled';
  const cause = e?.cause;
  if (cause?.code) return `${cause.code}${cause.message && !cause.message.includes(cause.code) ? ` (${cause.message})` : ''}`;
  return cause?.message ?? e?.message ?? String(error);
}
