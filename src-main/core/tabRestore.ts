import type { TabPlaceholder } from '../../src-shared/ipc/appState';
import { UserError } from '../errors/errors';
import { logDebug, logError } from '../log/mainLog';
import type { TabsStore } from '../store/tabsStore';

export interface TabRestoreDeps {
  tabs: TabsStore;
  /** Reads a session back from its log; null when there is no such session. */
  restore(sessionId: string): Promise<unknown>;
  /** Closes a session read back for a tab the person closed while it was being read. */
  close(sessionId: string): void;
  /** What the host knows of a session before reading it back (the history catalog, the log's first line). */
  describe(sessionId: string): { title: string | null; agentName: string | null };
  changed(): void;
}

/**
 * The tabs the last run left open (`sessions/tabs.json`), brought back after the page's first
 * answer (issue 23: reading long sessions blocks the loop that serves the page). Every saved tab
 * is in the tab list from the first answer on, in its saved place, named from what the host knew
 * without reading the session; the ones not read back yet are listed in `placeholders()` (the
 * page shows them as restoring), one that could not be read back stays in its place with why,
 * until the person closes it. The shown tab is read back first, then whichever the person shows
 * next, then the others in tab order. Before, each tab was added to the list as it came back,
 * so a tab's place moved under the pointer while the others arrived.
 */
export class TabRestore {
  private readonly pending = new Map<string, TabPlaceholder>();
  private readonly failed = new Map<string, TabPlaceholder>();
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(
    private readonly deps: TabRestoreDeps,
    saved: { open: string[]; active: string | null },
  ) {
    // Shown, not saved: the file already says so.
    deps.tabs.show(saved.open, saved.active);
    for (const sessionId of deps.tabs.current().open) this.pending.set(sessionId, { sessionId, ...this.describe(sessionId) });
  }

  private describe(sessionId: string): { title: string | null; agentName: string | null } {
    try {
      return this.deps.describe(sessionId);
    } catch (error) {
      // An id no log can have (a hand-edited tabs.json): its restore says so, in the tab.
      logDebug(`Naming the saved tab ${sessionId} before it is read back`, error);
      return { title: null, agentName: null };
    }
  }

  /** How many tabs are still to be read back. */
  get restoring(): number {
    return this.pending.size;
  }

  /** The open tabs not read back yet or that could not be, for the app state (undefined when none). */
  placeholders(): TabPlaceholder[] | undefined {
    const open = this.deps.tabs.current().open;
    const list = open.map((id) => this.pending.get(id) ?? this.failed.get(id)).filter((tab): tab is TabPlaceholder => Boolean(tab));
    return list.length ? list : undefined;
  }

  /** Whether this id is a tab without its session (yet): the person's tab moves keep it. */
  isPlaceholder(sessionId: string): boolean {
    return this.pending.has(sessionId) || this.failed.has(sessionId);
  }

  /**
   * Waits until a tab is read back (a request for it came before: the page's early script asks for
   * the shown tab's window as soon as the first answer lists it). Throws why when it could not be;
   * resolves at once for any other id.
   */
  async settled(sessionId: string): Promise<void> {
    if (this.pending.has(sessionId)) await new Promise<void>((resolve) => this.waiting.set(sessionId, [...(this.waiting.get(sessionId) ?? []), resolve]));
    const failed = this.failed.get(sessionId);
    if (failed) throw new UserError(failed.error ?? 'This session could not be read back.');
  }

  /** Reads the tabs back, one at a time, telling the page after each. */
  async run(): Promise<void> {
    for (let sessionId = this.next(); sessionId !== undefined; sessionId = this.next()) {
      const placeholder = this.pending.get(sessionId)!;
      let error: string | null = null;
      try {
        if (!(await this.deps.restore(sessionId))) error = 'Its log is missing or holds no session.';
      } catch (caught) {
        logError(`Restoring session ${sessionId}`, caught);
        error = `It could not be read back: ${(caught as Error).message}`;
      }
      this.pending.delete(sessionId);
      if (error !== null) this.failed.set(sessionId, { ...placeholder, error });
      // Closed while it was being read: it stays closed.
      else if (!this.deps.tabs.current().open.includes(sessionId)) this.deps.close(sessionId);
      this.release(sessionId);
      this.deps.changed();
    }
    // Closed before their turn came: not read at all.
    for (const sessionId of [...this.pending.keys()]) {
      this.pending.delete(sessionId);
      this.release(sessionId);
    }
  }

  /** The shown tab if it is still to be read, else the first such tab in tab order. */
  private next(): string | undefined {
    const { open, active } = this.deps.tabs.current();
    if (active !== null && this.pending.has(active)) return active;
    return open.find((id) => this.pending.has(id));
  }

  private release(sessionId: string): void {
    for (const resolve of this.waiting.get(sessionId) ?? []) resolve();
    this.waiting.delete(sessionId);
  }
}
