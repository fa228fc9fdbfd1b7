import { join } from 'node:path';
import { countMessages, firstPrompt } from '../../src-shared/history/entryText';
import type { SessionState } from '../../src-shared/session/state';
import { readJson, writeFileAtomic } from './jsonFile';
import { logWarn } from '../log/mainLog';

/** What the history list shows about a session, kept so the list opens without reading logs. */
export interface CatalogEntry {
  sessionId: string;
  agentId: string;
  agentName: string;
  cwd: string;
  title: string | null;
  /** The first prompt, clipped (what an untitled session is about). */
  preview: string | null;
  acpSessionId: string | null;
  lastActivity: number;
  messageCount: number;
  lastSeq: number;
  readonly: boolean;
  forkedFrom: string | null;
  /** The size of the log this entry was computed from: a different size means it is stale. */
  logSize: number;
}

interface CatalogFile {
  version: number;
  sessions: Record<string, CatalogEntry>;
}

const VERSION = 2; // 2: `preview`

/** A catalog entry from a session's folded state. */
export function catalogEntry(state: SessionState, logSize: number, forkedFrom: string | null = null): CatalogEntry {
  return {
    sessionId: state.sessionId,
    agentId: state.agentId,
    agentName: state.agentName,
    cwd: state.cwd,
    title: state.title,
    preview: firstPrompt(state.entries),
    acpSessionId: state.acpSessionId,
    lastActivity: state.lastActivity,
    messageCount: countMessages(state.entries),
    lastSeq: state.lastSeq,
    readonly: Boolean(state.readonlyReason),
    forkedFrom,
    logSize,
  };
}

/**
 * `sessions/index.json`: one small record per session log (title, agent, workspace, last
 * activity, message count). It is a cache: each record remembers the log size it was made
 * from, and anything missing, stale or unreadable is rebuilt from the logs (see
 * HistoryService.reconcile), so it never needs to be exact at a crash.
 */
export class SessionCatalog {
  readonly file: string;
  private entries = new Map<string, CatalogEntry>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    dataDir: string,
    private readonly delayMs = 1000,
  ) {
    this.file = join(dataDir, 'sessions', 'index.json');
    const { value } = readJson<Partial<CatalogFile>>(this.file, {});
    if (value?.version === VERSION && value.sessions && typeof value.sessions === 'object') {
      for (const [id, entry] of Object.entries(value.sessions)) {
        if (entry && typeof entry === 'object' && typeof entry.logSize === 'number' && typeof entry.agentId === 'string') this.entries.set(id, entry);
      }
    }
  }

  list(): CatalogEntry[] {
    return [...this.entries.values()];
  }

  get(sessionId: string): CatalogEntry | undefined {
    return this.entries.get(sessionId);
  }

  put(entry: CatalogEntry): void {
    const previous = this.entries.get(entry.sessionId);
    this.entries.set(entry.sessionId, { ...entry, forkedFrom: entry.forkedFrom ?? previous?.forkedFrom ?? null });
    this.schedule();
  }

  remove(sessionId: string): void {
    if (this.entries.delete(sessionId)) this.schedule();
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      try {
        this.flush();
      } catch (error) {
        logWarn(`Saving ${this.file} (a cache: rebuilt from the logs on the next start)`, error);
      }
    }, this.delayMs);
  }

  flush(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = null;
    const file: CatalogFile = { version: VERSION, sessions: Object.fromEntries(this.entries) };
    writeFileAtomic(this.file, JSON.stringify(file));
  }
}
