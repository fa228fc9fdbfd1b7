/** How long no response may be in flight after the page's first files before the core loads. */
const QUIET_MS = 15;

/**
 * The browser host's core, loaded once the page's first files are sent (issue 23, cold start).
 *
 * Loading the core (the contract's schemas and every service: most of the host's start-up CPU)
 * used to come before the host listened, so the page could not even fetch index.html until it
 * was done. Loaded here, it runs while the browser parses and runs index.js on its own core:
 * after index.html and the burst of files it names were sent and nothing was in flight for a
 * moment, or after `latestMs` whatever happens (a host nobody opens still restores its tabs).
 * A socket that needs it (the page's early script opens one while index.js is still coming)
 * has it loaded as soon as no file is being sent: loading blocks the event loop that sends them.
 */
export class CoreWhenServed<Core> {
  private loading: Promise<Core> | null = null;
  private pageSent = false;
  private wanted = false;
  private quietTimer: NodeJS.Timeout | undefined;
  private readonly latestTimer: NodeJS.Timeout;
  private readonly loaded: Promise<Core>;
  private settle!: { resolve: (core: Core) => void; reject: (error: unknown) => void };

  constructor(
    private readonly load: () => Promise<Core>,
    private readonly inFlight: () => number,
    latestMs = 300,
  ) {
    this.loaded = new Promise<Core>((resolve, reject) => (this.settle = { resolve, reject }));
    // Whoever waits sees the failure; nobody waiting is not an unhandled rejection.
    this.loaded.catch(() => {});
    this.latestTimer = setTimeout(() => this.start(), latestMs);
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
    if (!this.pageSent) return;
    clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => this.start(), QUIET_MS);
  }

  /** A response started: the burst is not over. */
  receiving(): void {
    clearTimeout(this.quietTimer);
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
