import { createWriteStream } from 'node:fs';
import { describeFetchError } from '../net/http';
import { logged } from '../log/mainLog';

/** An install failure with a message meant for the person (it says what happened and why). */
export class InstallError extends Error {
  constructor(
    message: string,
    readonly reason:
      | 'cancelled'
      | 'engines'
      | 'http'
      | 'network'
      | 'truncated'
      | 'disk'
      | 'archive'
      | 'unsafe'
      | 'platform'
      | 'runtime'
      | 'npm'
      | 'verify'
      | 'other' = 'other',
  ) {
    super(message);
  }
}

export function cancelled(): InstallError {
  return new InstallError('The install was cancelled.', 'cancelled');
}

/** File-system errors in words: a full disk or missing permission is the usual cause. */
export function describeFsError(error: unknown, where: string): InstallError {
  const e = error as NodeJS.ErrnoException;
  if (e instanceof InstallError) return e;
  switch (e?.code) {
    case 'ENOSPC':
      return new InstallError(`Not enough disk space in ${where} (ENOSPC).`, 'disk');
    case 'EDQUOT':
      return new InstallError(`The disk quota is exhausted in ${where} (EDQUOT).`, 'disk');
    case 'EACCES':
    case 'EPERM':
      return new InstallError(`No permission to write in ${where} (${e.code}).`, 'disk');
    case 'EROFS':
      return new InstallError(`${where} is on a read-only file system.`, 'disk');
    default:
      return new InstallError(`Could not write in ${where}: ${e?.message ?? String(error)}`, 'disk');
  }
}

export interface DownloadProgress {
  bytes: number;
  total: number | null;
  bytesPerSecond: number;
}

export interface DownloadOptions {
  signal?: AbortSignal;
  onProgress?: (progress: DownloadProgress) => void;
  fetch?: typeof fetch;
  /** How long to wait for the server to start answering. */
  connectTimeoutMs?: number;
  /** How often progress is reported at most. */
  progressIntervalMs?: number;
}

/**
 * Downloads a URL into a file, reporting bytes, total and speed. Fails clearly on an HTTP
 * error status, a connection cut before `Content-Length` bytes arrived, a full disk or a
 * cancel; the caller removes the partial file (it lives in the install's temp folder).
 */
export async function download(url: string, file: string, options: DownloadOptions = {}): Promise<{ bytes: number }> {
  const { signal } = options;
  if (signal?.aborted) throw cancelled();
  const connect = new AbortController();
  const onAbort = () => connect.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const connectTimer = setTimeout(() => connect.abort(new Error('timeout')), options.connectTimeoutMs ?? 30_000);
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, { signal: connect.signal, redirect: 'follow' });
  } catch (error) {
    if (signal?.aborted) throw cancelled();
    if (connect.signal.aborted) throw new InstallError(`The download server did not answer: ${url}`, 'network');
    throw new InstallError(`Could not download ${url}: ${describeFetchError(error, url)}`, 'network');
  } finally {
    clearTimeout(connectTimer);
  }
  try {
    if (!response.ok) {
      // Best effort: the download failed already; a body that cannot be cancelled is dropped anyway.
      void response.body?.cancel().catch(logged(`Cancelling the body of ${url}`, 'debug'));
      throw new InstallError(`The download failed: HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''} for ${url}`, 'http');
    }
    const header = response.headers.get('content-length');
    // A compressed transfer's length is of the compressed bytes; only trust it for identity.
    const encoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity';
    const total = header !== null && !encoded && /^\d+$/.test(header) ? Number(header) : null;
    const out = createWriteStream(file, { flags: 'wx' });
    const outError = new Promise<never>((_, reject) => out.on('error', reject));
    // Raced below (and reported there); this only keeps an error after the race from being unhandled.
    outError.catch(logged(`Writing ${file}`, 'debug'));
    let bytes = 0;
    const started = Date.now();
    const samples: { t: number; bytes: number }[] = [{ t: started, bytes: 0 }];
    let lastReport = 0;
    const report = (force: boolean) => {
      const now = Date.now();
      if (!force && now - lastReport < (options.progressIntervalMs ?? 100)) return;
      lastReport = now;
      samples.push({ t: now, bytes });
      while (samples.length > 2 && now - samples[0].t > 3000) samples.shift();
      const first = samples[0];
      const seconds = (now - first.t) / 1000;
      const bytesPerSecond = seconds > 0 ? Math.round((bytes - first.bytes) / seconds) : 0;
      options.onProgress?.({ bytes, total, bytesPerSecond });
    };
    report(true);
    try {
      if (!response.body) throw new InstallError(`The download of ${url} had no body.`, 'http');
      const reader = response.body.getReader();
      for (;;) {
        let chunk: { done: true; value?: undefined } | { done: false; value: Uint8Array };
        try {
          chunk = await Promise.race([reader.read(), outError]);
        } catch (error) {
          if (signal?.aborted) throw cancelled();
          if ((error as NodeJS.ErrnoException)?.code && (error as NodeJS.ErrnoException).syscall) throw describeFsError(error, file);
          throw new InstallError(
            `The download was cut off after ${formatBytes(bytes)}${total !== null ? ` of ${formatBytes(total)}` : ''} (${describeFetchError(error)}): ${url}`,
            'truncated',
          );
        }
        if (chunk.done) break;
        bytes += chunk.value.byteLength;
        if (!out.write(chunk.value)) await Promise.race([new Promise<void>((resolve) => out.once('drain', () => resolve())), outError]);
        report(false);
      }
      await Promise.race([new Promise<void>((resolve) => out.end(resolve)), outError]);
    } catch (error) {
      out.destroy();
      if (error instanceof InstallError) throw error;
      throw describeFsError(error, file);
    }
    if (signal?.aborted) throw cancelled();
    if (total !== null && bytes !== total) {
      throw new InstallError(`The download was cut off after ${formatBytes(bytes)} of ${formatBytes(total)}: ${url}`, 'truncated');
    }
    report(true);
    return { bytes };
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
