import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import type { WebSocket, WebSocketServer } from 'ws';
import { framesOf } from '../../src-shared/ipc/frameParts';
import { MAX_REQUEST_BYTES } from '../../src-shared/ipc/limits';
import type { AppCore } from '../core/appCore';
import type { dispatch } from '../core/dispatch';
import { filesStamp, type PageStart } from '../store/pageStart';
import { logged } from '../log/mainLog';
import { CoreWhenServed } from './coreWhenServed';
import { cacheControl, encodedPage, pickEncoding, StaticAssets, type Encoding } from './staticAssets';

export interface BrowserHostOptions {
  /**
   * The core, or how to load it. A host given a loader listens first and loads the core once
   * the page's first files are sent (`coreWhenServed.ts`): the page starts sooner.
   */
  core: AppCore | (() => Promise<AppCore>);
  /** With a loader: the core is loaded by then even if no page came (default 300 ms). */
  loadCoreWithinMs?: number;
  /** The built renderer (`out/renderer`). */
  rendererDir: string;
  host?: string;
  port?: number;
  token?: string;
  /** How long `close` lets responses in progress finish before cutting them (a reader that stalled). */
  closeGraceMs?: number;
  /**
   * What to put before the page's root in index.html, read for each load (`store/pageStart.ts`:
   * the shown session's first paint, the cached app state); null or a failure serves it as built.
   */
  pageStart?: () => PageStart | null | Promise<PageStart | null>;
}

export interface BrowserHost {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ttf': 'font/ttf',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
};

/**
 * The browser host: the same core as the desktop app, its contract carried over a WebSocket,
 * the built renderer served over HTTP. Loopback and a random token by default; requests and
 * upgrades without the token get 401; upgrades from another origin are refused.
 */
export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const host = options.host ?? '127.0.0.1';
  const rendererDir = resolve(options.rendererDir);
  const assets = new StaticAssets();
  const given = options.core;
  // The core with the dispatcher (it loads the contract's schemas) and the socket server: a
  // socket's requests wait for all of them at once.
  let serving: Promise<Serving> | null = null;
  const load = (): Promise<Serving> =>
    (serving ??= Promise.all([typeof given === 'function' ? given() : given, import('../core/dispatch')]).then(([core, loaded]) => {
      sockets();
      return { core, dispatch: loaded.dispatch };
    }));
  const deferred = typeof given === 'function' ? new CoreWhenServed(load, () => inFlight.size, options.loadCoreWithinMs) : null;
  const ready = (): Promise<Serving> => deferred?.want() ?? load();
  // Responses being sent, so that stopping lets them finish: a page still loading a script
  // when the host stops gets all of it, never a cut response (issue 28).
  const inFlight = new Set<ServerResponse>();
  let closing = false;
  let drained: (() => void) | null = null;
  const server: Server = createServer((req, res) => {
    inFlight.add(res);
    deferred?.receiving(parseRequestUrl(req.url)?.pathname ?? '');
    res.on('close', () => {
      inFlight.delete(res);
      deferred?.sent(parseRequestUrl(req.url)?.pathname ?? '');
      if (inFlight.size === 0) drained?.();
    });
    if (closing) res.setHeader('connection', 'close');
    serveHttp(req, res, {
      rendererDir,
      token,
      assets,
      pageStart: options.pageStart,
      preparedPage: takePreparedPage,
      entryAfterFirstFrame: () => deferred?.pageWaitsForFirstFrame(),
    });
  });
  // index.html with its first paint as the first load asks for it (brotli), made as the host
  // starts: made in the request, it waited for a core on a loaded machine (round 8: the host's
  // loop stalled 100–400 ms at a time, and the page's first bytes with it). Used once, and only
  // while the core, the one writer of the files it is made from, has not started loading.
  let preparedPage: Promise<PageBody> | null = null;
  const takePreparedPage = (encoding: Encoding): Promise<PageBody> | null => {
    const page = preparedPage;
    preparedPage = null;
    if (!page || encoding !== 'br' || !deferred || deferred.started) return null;
    // Made from files nothing in this process has written since; another process may have (another host, an agent's log).
    return page.then((made) => (made.unchanged?.() ? made : withFirstPaint(assets, join(rendererDir, 'index.html'), encoding, options.pageStart!)));
  };
  if (options.pageStart && deferred) {
    const pageStart = options.pageStart;
    setImmediate(() => {
      preparedPage ??= withFirstPaint(assets, join(rendererDir, 'index.html'), 'br', pageStart);
      preparedPage.catch(() => {});
    });
  }
  void assets.warm(rendererDir).catch(logged('Compressing the renderer for the browser host', 'debug'));
  // `ws` is required when first needed: it is the host's largest package, and the page asks
  // for a socket only after its script ran.
  let wss: WebSocketServer | null = null;
  const sockets = (): WebSocketServer => {
    if (!wss) {
      const { WebSocketServer: Server } = createRequire(import.meta.url)('ws') as typeof import('ws');
      wss = new Server({ noServer: true, maxPayload: MAX_REQUEST_BYTES * 4 });
    }
    return wss;
  };

  server.on('upgrade', (req, socket, head) => {
    // Whatever arrives, the answer is a status line; nothing a request carries may throw out of here.
    socket.on('error', logged('A socket asking to upgrade failed (a client that went away)', 'debug'));
    try {
      const verdict = closing ? '503 Service Unavailable' : checkUpgrade(req, token);
      if (verdict) {
        socket.end(`HTTP/1.1 ${verdict}\r\nConnection: close\r\n\r\n`);
        return;
      }
      sockets().handleUpgrade(req, socket, head, (ws) => attach(ws, ready()));
    } catch {
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    }
  });
  // A malformed request line or header (node's parser) gets 400 instead of an unhandled error.
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });

  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolvePromise());
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}/?token=${token}`,
    port,
    token,
    close: async () => {
      closing = true;
      deferred?.dispose();
      const open = wss;
      if (open) {
        for (const client of open.clients) client.terminate();
        await new Promise<void>((r) => open.close(() => r()));
      }
      // Responses in progress finish first (new ones are still served, with `connection: close`);
      // a reader that stalled is cut after the grace. Not `server.close()` yet: it also closes
      // the connections Node counts as idle, which includes one whose response was ended but
      // is still being sent (a cut response).
      if (inFlight.size > 0) {
        let timer: NodeJS.Timeout | undefined;
        await new Promise<void>((r) => {
          drained = r;
          timer = setTimeout(r, options.closeGraceMs ?? 3000);
        });
        clearTimeout(timer);
      }
      const closed = new Promise<void>((r) => server.close(() => r()));
      // Keep-alive connections from open pages would hold `close` open indefinitely.
      server.closeAllConnections();
      await closed;
    },
  };
}

/** Why an upgrade is refused (a status line), or null to accept it. */
export function checkUpgrade(req: Pick<IncomingMessage, 'url' | 'headers'>, token: string): string | null {
  const url = parseRequestUrl(req.url);
  if (!url) return '400 Bad Request';
  if (!tokenMatches(url.searchParams.get('token'), token)) return '401 Unauthorized';
  // A page on another origin must not drive the agents even if it learned the token. An origin
  // that is not a URL (`null` from a sandboxed frame or file://, or garbage) is another origin.
  const origin = req.headers.origin;
  const hostHeader = req.headers.host;
  if (origin !== undefined && originHost(origin) !== hostHeader) return '403 Forbidden';
  if (url.pathname !== '/ws') return '404 Not Found';
  return null;
}

function originHost(origin: string | string[]): string | null {
  if (typeof origin !== 'string') return null;
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

function parseRequestUrl(raw: string | undefined): URL | null {
  try {
    return new URL(raw ?? '/', 'http://localhost');
  } catch {
    return null;
  }
}

function tokenMatches(given: string | null, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieToken(req: IncomingMessage): string | null {
  const match = /(?:^|;\s*)acp_token=([^;]+)/.exec(req.headers.cookie ?? '');
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    // Any page on 127.0.0.1 can plant a cookie: a malformed one is no token, not a crash.
    return null;
  }
}

interface Served {
  rendererDir: string;
  token: string;
  assets: StaticAssets;
  pageStart?: () => PageStart | null | Promise<PageStart | null>;
  /** index.html with its first paint made ahead for `encoding`, or null (`startBrowserHost`). */
  preparedPage?: (encoding: Encoding) => Promise<PageBody> | null;
  /** index.html was sent with its entry named for after the first frame. */
  entryAfterFirstFrame?: () => void;
}

function serveHttp(req: IncomingMessage, res: ServerResponse, served: Served): void {
  try {
    serveChecked(req, res, served);
  } catch {
    if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Bad request\n');
  }
}

/**
 * Sends a file whole, with its length: it is read before the status line, so a read that fails
 * (the file went away, a rebuild in progress) is a 404 or 500, never a response cut in the middle.
 */

function badRequest(res: ServerResponse): void {
  res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('Bad request\n');
}

function serveChecked(req: IncomingMessage, res: ServerResponse, { rendererDir, token, assets, pageStart, preparedPage, entryAfterFirstFrame }: Served): void {
  const url = parseRequestUrl(req.url);
  if (!url) return badRequest(res);
  const fromQuery = url.searchParams.get('token');
  if (!tokenMatches(fromQuery, token) && !tokenMatches(cookieToken(req), token)) {
    res.writeHead(401, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Unauthorized: open the URL with the token that `acp-desktop serve` printed.\n');
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405).end();
    return;
  }
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return badRequest(res);
  }
  if (pathname.includes('\0')) return badRequest(res);
  if (pathname === '/') pathname = '/index.html';
  const file = normalize(join(rendererDir, pathname));
  if (!file.startsWith(rendererDir + sep) || !existsSync(file) || !statSync(file).isFile()) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
    return;
  }
  const paint = file === join(rendererDir, 'index.html') ? pageStart : undefined;
  // A page with a first paint is larger than index.html as built: worth compressing.
  const encoding = pickEncoding(req, file, paint ? Number.MAX_SAFE_INTEGER : statSync(file).size);
  const headers: Record<string, string> = {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    // Content-hashed assets for a year; index.html revalidated (its ETag answers 304) so a rebuild shows.
    'cache-control': cacheControl(file),
    vary: 'accept-encoding',
  };
  if (encoding !== 'identity') headers['content-encoding'] = encoding;
  // The page's own assets load without the query string; a same-site cookie carries the token.
  if (fromQuery) headers['set-cookie'] = `acp_token=${encodeURIComponent(fromQuery)}; HttpOnly; SameSite=Strict; Path=/`;
  if (file.endsWith('index.html')) headers['x-frame-options'] = 'DENY';
  (paint
    ? (preparedPage?.(encoding) ?? withFirstPaint(assets, file, encoding, paint))
    : assets.body(file, encoding).then((sent) => ({ ...sent, afterFirstFrame: false }))
  ).then(
    ({ body, etag, afterFirstFrame }) => {
      if (afterFirstFrame) entryAfterFirstFrame?.();
      headers.etag = etag;
      if (req.headers['if-none-match'] === etag) return void res.writeHead(304, headers).end();
      headers['content-length'] = String(body.length);
      res.writeHead(200, headers);
      res.end(req.method === 'HEAD' ? undefined : body);
    },
    (error: NodeJS.ErrnoException) => {
      // Read whole before the status line: a failed read is a clear 404/500, never a cut response.
      const missing = error?.code === 'ENOENT';
      if (!missing) logged(`Reading ${file} to serve it`, 'warn')(error);
      res.writeHead(missing ? 404 : 500, { 'content-type': 'text/plain; charset=utf-8' }).end(missing ? 'Not found\n' : 'The file could not be read.\n');
    },
  );
}

/** The built index.html's preload links: `modulepreload` (chunks) and `preload` (their stylesheets). */
const PRELOAD_LINK = /<link rel="(modulepreload|preload)"([^>]*)>/g;

/** The app's entry in the built index.html: its one module script that is not `async` (the early script is). */
const ENTRY_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>/;

/** Tells the early script that the page's first frame comes before its socket (src-renderer/early.ts). */
const ENTRY_AFTER_FIRST_PAINT = '<meta name="acp-entry" content="after-first-paint">';

/** The start stylesheet: the one `<link rel="stylesheet">` of the built index.html. */
const START_STYLESHEET = /<link rel="stylesheet" crossorigin href="\.\/(assets\/[A-Za-z0-9_-]+\.css)">/;

/**
 * The page with its start stylesheet inline: the first frame waits for it, and a request for it
 * waits for the host's event loop, which is loading the core as the page arrives. Its text names
 * no other file (checked: a url() would resolve against the page instead).
 */
async function withStylesheetInline(assets: StaticAssets, rendererDir: string, page: string): Promise<string> {
  const link = START_STYLESHEET.exec(page);
  if (!link) return page;
  const css = (await assets.body(join(rendererDir, link[1]), 'identity')).body.toString('utf8');
  if (/url\(|@import|<\/style/i.test(css)) return page;
  return page.replace(link[0], () => `<style>${css}</style>`);
}

/** A page as sent: `afterFirstFrame` when its entry is named for after the first frame. */
interface PageBody {
  body: Buffer;
  etag: string;
  afterFirstFrame?: boolean;
  /** Its page start's files are as they were when it was read (`store/pageStart.ts`, `filesStamp`). */
  unchanged?: () => boolean;
}

/** index.html with the first paint before its root, when there is one to show. */
async function withFirstPaint(
  assets: StaticAssets,
  file: string,
  encoding: Encoding,
  pageStart: () => PageStart | null | Promise<PageStart | null>,
): Promise<PageBody> {
  const paint = await Promise.resolve()
    .then(pageStart)
    .catch(() => null);
  if (paint) {
    const built = (await assets.body(file, 'identity')).body.toString('utf8');
    const root = '<div id="root"></div>';
    if (built.includes(root) && /<html\b/.test(built) && ENTRY_SCRIPT.test(built)) {
      const { theme, markup, deferEntry, inputs, stamp } = paint;
      const unchanged = () => inputs !== undefined && filesStamp(inputs) === stamp;
      // Function replacements: a `$&` in the rows' text is text, not a pattern.
      let page = built.replace(root, () => `${markup}${root}`);
      if (theme) page = page.replace(/<html\b/, () => `<html data-theme="${theme}"`);
      // The browser paints no frame before a module script that has arrived has run: the entry
      // is named for after the first frame, and fetched and run once it is on the screen
      // (src-renderer/entryAfterFirstPaint.ts).
      if (deferEntry) {
        page = page.replace(ENTRY_SCRIPT, (_script, src: string) => `<link crossorigin href="${src}" data-after-first-paint>`);
        // Preloads are compiled as they arrive, on the cores the first frame is drawn and rastered
        // with: named for after it (src-renderer/entryAfterFirstPaint.ts makes them preloads again).
        page = page.replace(PRELOAD_LINK, (_link, rel: string, rest: string) => `<link data-preload-after-first-paint="${rel}"${rest}>`);
        page = await withStylesheetInline(assets, dirname(file), page);
        // The early script opens its socket after the first frame too (src-renderer/early.ts): the
        // host loads its core when that socket asks. Before the early script, so it is parsed when that runs.
        page = page.replace(/<head>/, () => `<head>${ENTRY_AFTER_FIRST_PAINT}`);
        return { ...encodedPage(page, encoding), afterFirstFrame: true, unchanged };
      }
      return { ...encodedPage(page, encoding), unchanged };
    }
  }
  return assets.body(file, encoding);
}

interface Serving {
  core: AppCore;
  dispatch: typeof dispatch;
}

/** One window's connection: requests in, answers and events out (once the core is there). */
function attach(ws: WebSocket, serving: Promise<Serving>): void {
  let off = (): void => {};
  let gone = false;
  const leave = () => {
    gone = true;
    off();
  };
  ws.on('close', leave);
  ws.on('error', leave);
  void serving.then(
    ({ core }) => {
      if (gone) return;
      off = core.on((name, payload) => {
        if (ws.readyState !== ws.OPEN) return;
        for (const frame of framesOf(JSON.stringify({ t: 'evt', name, payload }))) ws.send(frame);
      });
    },
    () => {},
  );
  ws.on('message', async (data, isBinary) => {
    const size = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as Buffer).byteLength;
    let message: { t?: unknown; id?: unknown; name?: unknown; input?: unknown };
    if (size > MAX_REQUEST_BYTES || isBinary) {
      const id = /"id"\s*:\s*(\d+)/.exec(data.toString().slice(0, 200))?.[1];
      ws.send(
        JSON.stringify({
          t: 'res',
          id: id ? Number(id) : null,
          ok: false,
          error: { code: 'too_large', message: `Request is ${size} bytes; the limit is ${MAX_REQUEST_BYTES}.` },
        }),
      );
      return;
    }
    try {
      message = JSON.parse(data.toString());
    } catch {
      ws.send(JSON.stringify({ t: 'res', id: null, ok: false, error: { code: 'bad_request', message: 'Message is not valid JSON.' } }));
      return;
    }
    const id = typeof message?.id === 'number' || typeof message?.id === 'string' ? message.id : null;
    if (message?.t !== 'req' || id === null) {
      ws.send(JSON.stringify({ t: 'res', id, ok: false, error: { code: 'bad_request', message: 'Expected {"t":"req","id",…}.' } }));
      return;
    }
    let answer: Awaited<ReturnType<typeof dispatch>>;
    try {
      const { core, dispatch: run } = await serving;
      answer = await run(core.handlers, message.name, message.input, size);
    } catch (error) {
      answer = { ok: false, error: { code: 'failed', message: `The app could not start: ${(error as Error)?.message ?? String(error)}` } };
    }
    if (ws.readyState !== ws.OPEN) return;
    for (const frame of framesOf(JSON.stringify({ t: 'res', id, ...answer }))) ws.send(frame);
  });
}
