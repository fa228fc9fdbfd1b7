/** How long no response may be in flight after the page's first files before the core loads. */
const QUIET_MS = 15;

/**
 * The browser host's core, loaded once the page's first files are sent (issue 23, cold start).
 *
 * Loading the core (the contract's schemas and every service: most of the host's start-up CPU)
 * used to come before the host listened, so the page could not even fetch index.html until it
 * was done. Loaded here, it runs while the browser parses and runs index.js on its own core:
 * after index.html and the burst of files it names were sent and nothing was in flight for a
 * moment, on the first socket (the page needs the core now), or after `latestMs` whatever
 * happens (a host nobody opens still restores its tabs).
 */
export class CoreWhenServed<Core> {
  private loading: Promise<Core> | null = null;
  private pageSent = false;
  private quietTimer: NodeJS.Timeout | undefined;
  private readonly latestTimer: NodeJS.Timeout;

  constructor(
    private readonly load: () => Promise<Core>,
    latestMs = 300,
  ) {
    this.latestTimer = setTimeout(() => void this.get().catch(() => {}), latestMs);
  }

  /** The core, loading it now if it has not started. */
  get(): Promise<Core> {
    if (!this.loading) {
      clearTimeout(this.latestTimer);
      clearTimeout(this.quietTimer);
      this.loading = this.load();
    }
    return this.loading;
  }

  /** A response was sent; `inFlight` are the ones still being sent. */
  sent(path: string, inFlight: number): void {
    if (this.loading) return;
    if (path === '/' || path === '/index.html') this.pageSent = true;
    if (!this.pageSent || inFlight > 0) return;
    clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => void this.get().catch(() => {}), QUIET_MS);
  }

  /** A response started: the burst is not over. */
  receiving(): void {
    clearTimeout(this.quietTimer);
  }

  dispose(): void {
    clearTimeout(this.latestTimer);
    clearTimeout(this.quietTimer);
  }
}
