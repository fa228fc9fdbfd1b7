// Over 400 lines on purpose: the history actions (list, open, rename, delete, fork, continue, search,
// export) share one catalog and one search index; each action is short and the file reads as their table.
import { existsSync, readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { UserError } from '../errors/errors';
import { join } from 'node:path';
import type { HistoryItem, SearchHit, SessionExport } from '../../src-shared/ipc/historyContract';
import { exportFileName, sessionToMarkdown } from '../../src-shared/history/markdown';
import { blockText } from '../../src-shared/history/entryText';
import type { SessionEvent, SessionEventBody } from '../../src-shared/session/events';
import type { SessionState } from '../../src-shared/session/state';
import type { Settings } from '../../src-shared/settings';
import type { AgentManager } from '../agents/agentManager';
import type { SessionManager } from '../sessions/sessionManager';
import { DraftsStore } from '../store/draftsStore';
import { EventLog, readEventLog } from '../store/eventLog';
import { removeSnapshot } from '../store/logSnapshot';
import { removePaint } from '../store/firstPaintFile';
import { foldLog } from '../sessions/sessionRestore';
import { catalogEntry, SessionCatalog, type CatalogEntry } from '../store/sessionCatalog';
import type { TabsStore } from '../store/tabsStore';
import { SearchProxy } from './searchProxy';
import { logged, logUnlessMissing, logWarn } from '../log/mainLog';

/** An open session as history reads it. */
export interface LiveSession {
  state: SessionState;
  logFile: string;
  agentId: string;
  acpSessionId: string | null;
}

/** What history needs from the session manager: its actions, and a read-only look at open sessions. */
export interface HistorySessions extends Pick<SessionManager, 'flush' | 'logFile' | 'restore' | 'open' | 'forkAcp' | 'recordEvent' | 'close'> {
  live(sessionId: string): LiveSession | undefined;
  /** The restore in flight of a session being opened, if any. */
  restoringNow?(sessionId: string): Promise<unknown> | undefined;
}

export interface HistoryServiceOptions {
  dataDir: string;
  sessions: HistorySessions;
  agents: AgentManager;
  tabs: TabsStore;
  settings: () => Settings;
  notice: (level: 'info' | 'warning' | 'error', message: string) => void;
  changed: () => void;
  /** How long after a batch the index and search catch up (they are caches; the log is the truth). */
  indexDelayMs?: number;
  /** How long after `startSearchSoon()` the search worker starts if nothing needed it before. */
  searchStartDelayMs?: number;
}

const LOG_SUFFIX = '.jsonl';

/**
 * Sessions that last (docs/HISTORY.md): the history index, full-text search, drafts, export, and the
 * history actions (open an agent's session, rename, delete, fork, continue in a new session).
 *
 * The event logs stay the one source of truth. The history index (`sessions/index.json`) and
 * the search index (`sessions/search-index.json` and `sessions/search/`) are caches that record the log size they
 * were built from; `reconcile()` re-folds any log whose size differs, so a crash, a deleted
 * cache or a corrupt file only costs a rebuild.
 */
export class HistoryService {
  readonly drafts: DraftsStore;
  readonly catalog: SessionCatalog;
  readonly search: SearchProxy;
  private dirty = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private reconciling: Promise<void> | null = null;
  private searchTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly sessionsDir: string;

  constructor(private readonly options: HistoryServiceOptions) {
    this.sessionsDir = join(options.dataDir, 'sessions');
    this.drafts = new DraftsStore(options.dataDir);
    this.catalog = new SessionCatalog(options.dataDir);
    this.search = new SearchProxy(options.dataDir, (message) => options.notice('warning', message));
    // A re-spawned search worker has the saved index: what changed since is indexed again.
    this.search.onRespawn = () => this.reconcile();
    // The worker starts on first use (a search, `startSearchSoon`): then it catches up with the logs.
    this.search.onStart = () => this.searchStarted();
    if (this.drafts.error) options.notice('warning', `Unsent drafts could not be read and were reset (${this.drafts.error}).`);
  }

  // ---------------------------------------------------------------- keeping the caches current

  /** A session was folded back from `logSize` bytes of its log: search learns what its saved index holds of it. */
  restored(sessionId: string, logSize: number, state: SessionState): void {
    this.search.restored(sessionId, logSize, state);
  }

  /** A session was closed: what its restore left for search is let go. */
  closed(sessionId: string): void {
    this.search.closed(sessionId);
  }

  /** Called with every batch after it is appended to the log: the caches catch up shortly after. */
  onEvents(sessionId: string, _events: readonly SessionEvent[]): void {
    this.dirty.add(sessionId);
    this.timer ??= setTimeout(() => this.catchUp(), this.options.indexDelayMs ?? 400);
  }

  /** Updates the index and search for sessions that got events (live sessions only). */
  catchUp(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.dirty.size === 0) return;
    // Everything recorded is appended first, so the sizes below match the state we index.
    this.options.sessions.flush();
    const dirty = [...this.dirty];
    this.dirty.clear();
    for (const sessionId of dirty) {
      const live = this.options.sessions.live(sessionId);
      if (!live) continue;
      const size = fileSize(live.logFile);
      if (size === null) continue;
      this.catalog.put(catalogEntry(live.state, size));
      // Until the saved index is loaded, reconcile picks this session up (its size changed).
      if (this.search.loaded) this.search.indexState(live.state, size, false);
    }
  }

  /**
   * Brings the caches in line with the logs on disk: new or changed logs are folded (streamed)
   * and indexed, deleted ones dropped. Runs once at start; later calls share or repeat it.
   */
  reconcile(): Promise<void> {
    this.reconciling ??= this.doReconcile().finally(() => {
      this.reconciling = null;
    });
    return this.reconciling;
  }

  /**
   * Starts the search worker `searchStartDelayMs` after the start settled, if no search started it
   * before: the index keeps up with live sessions from then on, off the start's critical path.
   */
  startSearchSoon(): void {
    if (this.search.started || this.searchTimer) return;
    this.searchTimer = setTimeout(() => void this.search.start(), this.options.searchStartDelayMs ?? 3000);
    this.searchTimer.unref?.();
  }

  /**
   * The worker just started: its manifest says which log sizes the saved index reflects, and a
   * pass over the logs indexes what differs (nothing when nothing changed). The saved index loads
   * in the worker meanwhile; a session whose saved index proves unusable is indexed by one more pass.
   */
  private async searchStarted(): Promise<void> {
    if (this.searchTimer) clearTimeout(this.searchTimer);
    await this.search.loadManifest();
    if (this.search.loadError) this.options.notice('info', this.search.loadError);
    const loaded = this.search.load();
    // A pass that began before the manifest did not index: the next one does.
    await this.reconciling?.catch(() => {});
    await this.reconcile();
    await loaded.catch(logged('Loading the search index'));
    if (!this.search.droppedOnLoad) return;
    await this.reconcile(); // the pass running now, then one that sees the dropped sessions
    await this.reconcile();
  }

  private async doReconcile(): Promise<void> {
    // Until the search worker is started (first search, or `startSearchSoon`), only the history
    // list is brought up to date: the worker's start runs a pass of its own that indexes.
    this.catchUp();
    let names: string[] = [];
    try {
      names = readdirSync(this.sessionsDir).filter((name) => name.endsWith(LOG_SUFFIX));
    } catch (error) {
      logUnlessMissing(`Listing ${this.sessionsDir} (missing: no sessions yet)`, error);
    }
    const onDisk = new Set<string>();
    for (const name of names) {
      const sessionId = name.slice(0, -LOG_SUFFIX.length);
      onDisk.add(sessionId);
      const file = join(this.sessionsDir, name);
      const size = fileSize(file);
      if (size === null) continue;
      if (this.catalog.get(sessionId)?.logSize === size && (!this.search.loaded || this.search.indexedLogSize(sessionId) === size)) continue;
      try {
        const state = await this.stateOf(sessionId);
        if (!state?.agentId) continue;
        const current = fileSize(file) ?? size;
        this.catalog.put(catalogEntry(state, current));
        if (this.search.loaded) this.search.indexState(state, current, true);
      } catch (error) {
        this.options.notice('warning', `Could not index session ${sessionId}: ${(error as Error).message}`);
      }
    }
    for (const entry of this.catalog.list()) if (!onDisk.has(entry.sessionId)) this.catalog.remove(entry.sessionId);
    for (const sessionId of this.search.indexedSessions()) if (!onDisk.has(sessionId)) this.search.removeSession(sessionId);
  }

  /** A session's current state: the live one (flushed), else a fold of its log. */
  async stateOf(sessionId: string): Promise<SessionState | null> {
    const live = this.options.sessions.live(sessionId);
    if (live) {
      this.options.sessions.flush();
      return live.state;
    }
    // Being restored (opened while the history indexes it): that fold's state, not a second whole one at once.
    const restoring = this.options.sessions.restoringNow?.(sessionId);
    if (restoring) {
      await restoring;
      const restored = this.options.sessions.live(sessionId);
      if (restored) {
        this.options.sessions.flush();
        return restored.state;
      }
    }
    // The snapshot beside the log, when it fits, spares folding all of it (sessionRestore.ts).
    return (await foldLog(this.logFile(sessionId)))?.state ?? null;
  }

  private logFile(sessionId: string): string {
    return this.options.sessions.logFile(sessionId);
  }

  // ---------------------------------------------------------------- history list

  private item(entry: CatalogEntry): HistoryItem {
    const live = this.options.sessions.live(entry.sessionId);
    const state = live?.state;
    const agent = this.options.agents.find(entry.agentId);
    return {
      sessionId: entry.sessionId,
      agentId: entry.agentId,
      agentName: agent?.name ?? entry.agentName,
      cwd: entry.cwd,
      title: state ? state.title : entry.title,
      preview: entry.preview ?? null,
      acpSessionId: state ? state.acpSessionId : entry.acpSessionId,
      lastActivity: state ? state.lastActivity : entry.lastActivity,
      messageCount: entry.messageCount,
      origin: 'local',
      open: this.options.tabs.current().open.includes(entry.sessionId),
      readonly: state ? Boolean(state.readonlyReason) : entry.readonly,
      forkedFrom: entry.forkedFrom,
    };
  }

  async list(cwd?: string): Promise<HistoryItem[]> {
    await this.reconcile();
    this.catchUp();
    return this.catalog
      .list()
      .filter((entry) => !cwd || entry.cwd === cwd)
      .map((entry) => this.item(entry))
      .sort((a, b) => b.lastActivity - a.lastActivity);
  }

  /** One page of the agent's `session/list`, each row mapped to a local session when one is bound to it. */
  async agentSessions(agentId: string, cwd?: string, cursor?: string): Promise<{ items: HistoryItem[]; nextCursor: string | null }> {
    const agent = this.options.agents.find(agentId);
    if (!agent) throw new UserError(`Unknown agent "${agentId}".`);
    const connection = await this.options.agents.ensureRunning(agentId);
    // Capability-checked by the connection (refused unless the agent advertises session/list).
    const result = await connection.listSessions(cwd, cursor);
    await this.reconcile();
    const byAcp = new Map<string, CatalogEntry>();
    for (const entry of this.catalog.list()) if (entry.agentId === agentId && entry.acpSessionId) byAcp.set(entry.acpSessionId, entry);
    const items: HistoryItem[] = [];
    for (const row of result.sessions) {
      const local = byAcp.get(row.sessionId);
      const updatedAt = row.updatedAt ? Date.parse(row.updatedAt) : NaN;
      const listed: HistoryItem = {
        sessionId: null,
        agentId,
        agentName: agent.name,
        cwd: row.cwd ?? cwd ?? '',
        title: row.title ?? null,
        acpSessionId: row.sessionId,
        lastActivity: Number.isFinite(updatedAt) ? updatedAt : 0,
        messageCount: null,
        origin: 'agent',
        open: false,
        readonly: false,
      };
      if (local) {
        const mine = this.item(local);
        items.push({ ...mine, origin: 'both', title: mine.title ?? listed.title, lastActivity: Math.max(mine.lastActivity, listed.lastActivity) });
      } else {
        items.push(listed);
      }
    }
    // Cursors are opaque: passed back as given, never parsed or kept (protocol-v1-session-list).
    return { items, nextCursor: result.nextCursor || null };
  }

  private openTab(sessionId: string): void {
    this.options.tabs.open(sessionId);
    this.options.changed();
  }

  /** Opens a session only the agent knows: a local session bound to its id, loaded on connect. */
  async openAgentSession(agentId: string, acpSessionId: string, cwd: string, title?: string | null): Promise<string> {
    await this.reconcile();
    const existing = this.catalog.list().find((entry) => entry.agentId === agentId && entry.acpSessionId === acpSessionId);
    if (existing) {
      if (!(await this.options.sessions.restore(existing.sessionId))) throw new UserError(`No session "${existing.sessionId}".`);
      this.openTab(existing.sessionId);
      return existing.sessionId;
    }
    const agent = this.options.agents.find(agentId);
    if (!agent) throw new UserError(`Unknown agent "${agentId}".`);
    return this.options.sessions.open({ agentId, agentName: agent.name, cwd, acpSessionId, ...(title ? { title } : {}) }).id;
  }

  // ---------------------------------------------------------------- rename, delete, fork

  async rename(sessionId: string, title: string): Promise<void> {
    const body: SessionEventBody = { kind: 'title.changed', title, byPerson: true };
    if (this.options.sessions.live(sessionId)) {
      this.options.sessions.recordEvent(sessionId, body);
      this.onEvents(sessionId, []);
      return;
    }
    // Not open: append to its log directly (the next restore folds it like any other event).
    await this.reconcile();
    const entry = this.catalog.get(sessionId);
    if (!entry) throw new UserError(`No session "${sessionId}".`);
    const log = new EventLog(this.logFile(sessionId));
    log.append([{ ...body, sessionId, seq: entry.lastSeq + 1, ts: Date.now() } as SessionEvent]);
    log.close();
    this.catalog.put({ ...entry, title, lastSeq: entry.lastSeq + 1, logSize: fileSize(log.file) ?? entry.logSize });
    this.options.changed();
  }

  /** Deletes a session here (tab, log, draft, caches) and, when asked, on the agent. */
  async delete(input: { sessionId?: string; agentId?: string; acpSessionId?: string; alsoOnAgent: boolean }): Promise<{ agentDeleted: boolean }> {
    await this.reconcile();
    let agentId = input.agentId;
    let acpSessionId = input.acpSessionId;
    if (input.sessionId) {
      const sessionId = input.sessionId;
      const entry = this.catalog.get(sessionId);
      const live = this.options.sessions.live(sessionId);
      if (!entry && !live && !existsSync(this.logFile(sessionId))) throw new UserError(`No session "${sessionId}".`);
      agentId ??= live?.agentId ?? entry?.agentId;
      acpSessionId ??= live?.acpSessionId ?? entry?.acpSessionId ?? undefined;
      this.options.sessions.close(sessionId);
      this.options.tabs.close(sessionId);
      removeSnapshot(this.logFile(sessionId));
      removePaint(this.logFile(sessionId));
      try {
        unlinkSync(this.logFile(sessionId));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') logWarn(`Deleting the log of ${sessionId}`, error);
      }
      this.catalog.remove(sessionId);
      this.search.removeSession(sessionId);
      this.drafts.delete(sessionId);
      this.options.changed();
    }
    let agentDeleted = false;
    if ((input.alsoOnAgent || !input.sessionId) && agentId && acpSessionId) {
      const connection = await this.options.agents.ensureRunning(agentId);
      // A local delete still succeeds with an agent that cannot delete; an agent-only one cannot.
      if (connection.supportsSession('delete') || !input.sessionId) {
        await connection.deleteSession(acpSessionId);
        agentDeleted = true;
      }
    }
    return { agentDeleted };
  }

  /**
   * Forks with `session/fork`. A local session's fork starts with its transcript so far (its
   * events recorded again by the fork's own recorder), bound to the new ACP session id; both
   * keep the parent's extra workspace folders.
   */
  async fork(input: { sessionId?: string; agentId?: string; acpSessionId?: string; cwd?: string }): Promise<string> {
    await this.reconcile();
    let source: SessionState | null = null;
    if (input.sessionId) {
      source = await this.stateOf(input.sessionId);
      if (!source?.agentId) throw new UserError(`No session "${input.sessionId}".`);
    }
    const agentId = source?.agentId ?? input.agentId;
    const parentAcp = source?.acpSessionId ?? input.acpSessionId;
    const cwd = source?.cwd ?? input.cwd;
    if (!agentId || !cwd) throw new UserError('Fork needs a local session, or an agent, its session id and a folder.');
    if (!parentAcp) throw new UserError('This session never reached its agent, so there is nothing to fork there.');
    const agent = this.options.agents.find(agentId);
    if (!agent) throw new UserError(`Unknown agent "${agentId}".`);
    const additionalDirectories = source?.additionalDirectories ?? [];
    const fork = await this.options.sessions.forkAcp(agentId, { acpSessionId: parentAcp, cwd, additionalDirectories });
    const title = `${source?.title ?? 'Session'} (fork)`;
    const spec = { agentId, agentName: agent.name, cwd, additionalDirectories, acpSessionId: fork.acpSessionId, title };
    if (!source || !input.sessionId) return this.options.sessions.open(spec).id;

    const parentId = input.sessionId;
    this.options.sessions.flush();
    const { events } = await readEventLog(this.logFile(parentId));
    const session = this.options.sessions.open({
      ...spec,
      forkedFrom: parentId,
      transcript: events,
      then: [
        { kind: 'title.changed', title },
        { kind: 'notice', level: 'info', message: `Forked from “${source.title ?? parentId}”. Messages from here on go to the fork only.` },
      ],
    });
    this.options.sessions.flush();
    const state = session.fold();
    this.catalog.put(catalogEntry(state, fileSize(session.log.file) ?? 0, parentId));
    // Not started yet: the worker's first pass over the logs indexes the fork.
    if (this.search.loaded) this.search.indexState(state, fileSize(session.log.file) ?? 0, true);
    return session.id;
  }

  // ---------------------------------------------------------------- search, export, continue

  async query(text: string, limit = 50): Promise<SearchHit[]> {
    await this.reconcile();
    await this.search.start();
    this.catchUp();
    return (await this.search.query(text, limit)).flatMap((hit) => {
      const entry = this.catalog.get(hit.sessionId);
      if (!entry) return [];
      const live = this.options.sessions.live(hit.sessionId);
      return [
        {
          sessionId: hit.sessionId,
          entryId: hit.entryId,
          entryKind: hit.kind,
          snippet: hit.snippet,
          title: live?.state.title ?? entry.title,
          preview: entry.preview ?? null,
          agentName: entry.agentName,
          cwd: entry.cwd,
          lastActivity: live?.state.lastActivity ?? entry.lastActivity,
          score: hit.score,
        },
      ];
    });
  }

  async export(sessionId: string, format: 'markdown' | 'jsonl'): Promise<SessionExport> {
    const state = await this.stateOf(sessionId);
    if (!state?.agentId) throw new UserError(`No session "${sessionId}".`);
    if (format === 'jsonl') {
      return { filename: exportFileName(state, 'jsonl'), mimeType: 'application/x-ndjson', text: readFileSync(this.logFile(sessionId), 'utf8') };
    }
    return { filename: exportFileName(state, 'md'), mimeType: 'text/markdown', text: sessionToMarkdown(state, { exportedAt: new Date().toISOString() }) };
  }

  /**
   * "Start a new session from here" for a session its agent cannot resume or load: a new
   * session with the same agent and folder whose composer holds a quote of where the old
   * one stopped, for the person to edit and send (nothing is sent on their behalf).
   */
  async continueNew(sessionId: string): Promise<string> {
    const state = await this.stateOf(sessionId);
    if (!state?.agentId) throw new UserError(`No session "${sessionId}".`);
    const agent = this.options.agents.find(state.agentId);
    if (!agent) throw new UserError(`The agent "${state.agentName || state.agentId}" is no longer configured.`);
    const spec = {
      agentId: state.agentId,
      agentName: agent.name,
      cwd: state.cwd,
      additionalDirectories: state.additionalDirectories,
      continuedFrom: sessionId,
      ...(state.title ? { title: `${state.title} (continued)` } : {}),
    };
    return this.options.sessions.open(spec, (session) => {
      // The draft is in place before the tab shows the composer.
      this.drafts.set(session.id, continuationDraft(state));
      this.drafts.flush();
    }).id;
  }

  async dispose(): Promise<void> {
    if (this.searchTimer) clearTimeout(this.searchTimer);
    this.catchUp();
    await this.reconciling?.catch(logged('Reconciling the history index before quitting'));
    this.drafts.flush();
    this.catalog.flush();
    await this.search.dispose().catch(logged('Saving the search index before quitting'));
  }
}

function fileSize(file: string): number | null {
  try {
    return statSync(file).size;
  } catch {
    return null;
  }
}

function clip(text: string, max: number): string {
  const trimmed = text.trim();
  return trimmed.length > max ? `${trimmed.slice(0, max).trimEnd()}…` : trimmed;
}

/** The opening of a continued session: where the old one stopped, quoted. */
export function continuationDraft(state: SessionState): string {
  let user = '';
  let agent = '';
  for (let i = state.entries.length - 1; i >= 0 && !(user && agent); i--) {
    const entry = state.entries[i];
    if (!agent && entry.kind === 'agent' && !user) agent = entry.text;
    if (!user && entry.kind === 'user') user = entry.content.map(blockText).join('\n');
  }
  const quote = (text: string) =>
    text
      .split('\n')
      .map((line) => `> ${line}`)
      .join('\n');
  const parts = [`Continuing an earlier conversation${state.title ? ` (“${state.title}”)` : ''} in this folder. Where it stopped:`];
  if (user) parts.push(quote(`**Me:** ${clip(user, 1500)}`));
  if (agent) parts.push(quote(`**${state.agentName || 'Agent'}:** ${clip(agent, 1500)}`));
  return `${parts.join('\n\n')}\n\n`;
}
