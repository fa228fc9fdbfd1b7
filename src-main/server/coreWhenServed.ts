/** How long no response may be in flight after the page's first files before the core loads. */
const QUIET_MS = 15;

/**
 * The longest the core waits after the host listened or the page was asked for: a host nobody
 * opens still restores its tabs; a page whose first frame comes first opens its socket at most
 * 1 s after that frame started (src-renderer/entryAfterFirstPaint.ts).
 */
const FIRST_FRAME_AT_MOST_MS = 1500;

/**
 * The browser host's core, loaded once the page's first files are sent (issue 23, cold start).
 *
 * Loading the core (the contract's schemas and every service: most of the host's start-up CPU)
 * used to come before the host listened, so the page could not even fetch index.html until it
 * was done. Loaded here, it runs while the browser parses and runs index.js on its own core:
 * after index.html and the burst of files it names were sent and nothing was in flight for a
 * moment, or after `latestMs` (from the start, or from the page's request) whatever happens. A
 * page sent with its first frame drawn waits for its socket instead (`pageWaitsForFirstFrame`).
 * A socket that needs it (the page's early script opens one while index.js is still coming)
 * has it loaded as soon as no file is being sent: loading blocks the event loop that sends them.
 */
export class CoreWhenServed<Core> {
  private loading: Promise<Core> | null = null;
  private pageSent = false;
  private wanted = false;
  private firstFrameFirst = false;
  private pageAsked = false;
  private quietTimer: NodeJS.Timeout | undefined;
  private latestTimer: NodeJS.Timeout;
  private readonly loaded: Promise<Core>;
  private settle!: { resolve: (core: Core) => void; reject: (error: unknown) => void };

  constructor(
    private readonly load: () => Promise<Core>,
    private readonly inFlight: () => number,
    latestMs = FIRST_FRAME_AT_MOST_MS,
  ) {
    this.loaded = new Promise<Core>((resolve, reject) => (this.settle = { resolve, reject }));
    // Whoever waits sees the failure; nobody waiting is not an unhandled rejection.
    this.loaded.catch(() => {});
    this.latestTimer = setTimeout(() => this.start(), latestMs);
  }

  /** The core's load has started (it may write the files a page is made from). */
  get started(): boolean {
    return this.loading !== null;
  }

  /** The core once loaded, loading it now, or as soon as no file is being sent. */
  want(): Promise<Core> {
    if (!this.loading) {
      if (this.inFlight() === 0) this.start();
      else this.wanted = true;
    }
    return this.loaded;
  }

  /** A response was sent; `inFlight` are the ones still being sent. */
  sent(path: string): void {
    if (this.loading) return;
    if (path === '/' || path === '/index.html') this.pageSent = true;
    if (this.inFlight() > 0) return;
    if (this.wanted) return this.start();
    if (!this.pageSent || this.firstFrameFirst) return;
    clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => this.start(), QUIET_MS);
  }

  /**
   * The page was sent with its first frame drawn from files and its script named for after that
   * frame (`browserHost.ts`, src-renderer/entryAfterFirstPaint.ts): the core's load would take the
   * cores that frame is laid out and rastered on (on a loaded machine, hundreds of ms). It loads
   * when the page's socket asks for it, after that frame, or after a while in any case.
   */
  pageWaitsForFirstFrame(): void {
    if (this.loading) return;
    this.firstFrameFirst = true;
    clearTimeout(this.quietTimer);
  }

  /** A request came in (`path`): the burst is not over. */
  receiving(path: string): void {
    clearTimeout(this.quietTimer);
    // The page itself is asked for: from now the page's files and its socket say when (the
    // `latestMs` after the host's start would fall in the page's first frame on a loaded machine).
    // Once: a page asked for again and again (reloads) does not put the core off for ever.
    if (!this.loading && !this.pageAsked && (path === '/' || path === '/index.html')) {
      this.pageAsked = true;
      clearTimeout(this.latestTimer);
      this.latestTimer = setTimeout(() => this.start(), FIRST_FRAME_AT_MOST_MS);
    }
  }

  dispose(): void {
    clearTimeout(this.latestTimer);
    clearTimeout(this.quietTimer);
  }

  private start(): void {
    if (this.loading) return;
    clearTimeout(this.latestTimer);
    clearTimeout(this.quietTimer);
    this.loading = this.load();
    this.loading.then(this.settle.resolve, this.settle.reject);
  }
}
