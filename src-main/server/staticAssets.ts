import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Worth compressing: text formats (images and fonts are compressed already). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|wasm|map|txt)$/;
/** Below this a compressed body saves less than the headers it costs. */
const MIN_BYTES = 1024;
/** Vite's output names: `assets/<name>-<8+ hash characters>.<ext>`; such a file never changes. */
const HASHED = /[/\\]assets[/\\][^/\\]+-[A-Za-z0-9_-]{8,}\.[A-Za-z0-9]+$/;

export type Encoding = 'br' | 'gzip' | 'identity';

interface Variants {
  /** What the cache was made from: a file changed on disk (a rebuild) is compressed again. */
  key: string;
  file: string;
  mtimeMs: number;
  identity: Buffer;
  compressible: boolean;
  // Each encoding is compressed when first asked for: a browser asks for brotli, so gzip is not
  // made at start too (issue 23, cold start: both competed with the page's first load).
  br?: Promise<Buffer>;
  gzip?: Promise<Buffer>;
}

/** A content-hashed name may be cached for a year; anything else (index.html) is checked each time. */
export function cacheControl(file: string): string {
  return HASHED.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/** The best encoding the request accepts (brotli, then gzip), for a file worth compressing. */
export function pickEncoding(req: Pick<IncomingMessage, 'headers'>, file: string, size: number): Encoding {
  if (!COMPRESSIBLE.test(file) || size < MIN_BYTES) return 'identity';
  const accepted = String(req.headers['accept-encoding'] ?? '')
    .split(',')
    .map((part) => part.trim().split(';'))
    .filter(([, q]) => !q || !/^q=0(?:\.0*)?$/.test(q.trim()))
    .map(([name]) => name.toLowerCase());
  if (accepted.includes('br')) return 'br';
  if (accepted.includes('gzip')) return 'gzip';
  return 'identity';
}

/**
 * The built renderer's files, each compressed once per encoding asked for (on libuv's thread pool,
 * off the event loop) and kept in memory: the bundle is about 1 MB, and compressing it per
 * request would cost more than sending it. `warm()` compresses the start bundle at start so
 * the first page load does not wait for it.
 */
export class StaticAssets {
  private cache = new Map<string, Promise<Variants>>();

  async body(file: string, encoding: Encoding): Promise<{ body: Buffer; etag: string }> {
    // Not on the thread pool: on a loaded machine each of its hops waited tens of ms for a core (round 8).
    const info = statSync(file);
    const key = `${info.size}-${Math.floor(info.mtimeMs)}`;
    let entry = this.cache.get(file);
    let variants = entry ? await entry : null;
    if (!variants || variants.key !== key) {
      entry = this.load(file, key, info.mtimeMs);
      this.cache.set(file, entry);
      variants = await entry;
    }
    const body = encoding === 'identity' || !variants.compressible ? variants.identity : await this.encoded(variants, encoding);
    return { body, etag: `"${key}-${encoding}"` };
  }

  private async load(file: string, key: string, mtimeMs: number): Promise<Variants> {
    const identity = await readFile(file);
    return { key, file, mtimeMs, identity, compressible: COMPRESSIBLE.test(file) && identity.length >= MIN_BYTES };
  }

  private encoded(variants: Variants, encoding: 'br' | 'gzip'): Promise<Buffer> {
    const { identity } = variants;
    if (encoding === 'gzip') return (variants.gzip ??= gzipped(identity, { level: 9 }));
    // The build's `<file>.br` (scripts/precompress.mjs) when it is not older than the file: no
    // compression at start. Else quality 9 (of 11): within a few percent of the best, several
    // times faster for a 1 MB bundle.
    return (variants.br ??= prebuilt(variants).then(
      (built) => built ?? brotli(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
    ));
  }

  /**
   * Compresses what the first page load asks for (index.html and the files it names, in brotli,
   * which browsers ask for) ahead of the request; the rest (Monaco's languages, workers) on first use.
   */
  async warm(dir: string): Promise<void> {
    const index = join(dir, 'index.html');
    const html = await readFile(index, 'utf8');
    const files = [index, ...[...html.matchAll(/(?:src|href)="\/?([^"?#:]+)"/g)].map((match) => join(dir, match[1]))];
    for (const file of files) await this.body(file, 'br').catch(() => undefined);
  }
}

/**
 * A page made for one request (index.html with a first paint): compressed at a quality that
 * takes a millisecond or two for its ~100 KB (on this thread: the thread pool's hop cost more on
 * a loaded machine), and named by its content so a reload of the same page is a 304.
 */
export function encodedPage(text: string, encoding: Encoding): { body: Buffer; etag: string } {
  const identity = Buffer.from(text, 'utf8');
  const etag = `"page-${createHash('sha1').update(identity).digest('base64url')}-${encoding}"`;
  if (encoding === 'identity') return { body: identity, etag };
  const body = encoding === 'br' ? brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }) : gzipSync(identity, { level: 6 });
  return { body, etag };
}

/** The brotli file the build wrote beside `file`, unless it is missing or older than the file (a stale copy). */
async function prebuilt({ file, mtimeMs }: Variants): Promise<Buffer | null> {
  try {
    const br = `${file}.br`;
    if (statSync(br).mtimeMs < mtimeMs) return null;
    return await readFile(br);
  } catch {
    return null;
  }
}
