import { join } from 'node:path';
import type { WorktreeInfo } from '../../src-shared/ipc/worktreeContract';
import { readJson, writeFileAtomic } from './jsonFile';

interface WorktreesFile {
  version: 1;
  /** Session id → its worktree. */
  sessions: Record<string, WorktreeInfo>;
  /** Orphaned worktrees the person chose to leave alone (not offered again). */
  ignored: string[];
}

/**
 * `sessions/worktrees.json`: which session works in which worktree. Written atomically on every
 * change, because unlike the history catalog it is not a cache: a session's log does not know it
 * has a worktree, so this file is what brings the branch back to the tab after a restart.
 */
export class WorktreeStore {
  readonly file: string;
  private data: WorktreesFile = { version: 1, sessions: {}, ignored: [] };
  /** Why the file could not be read (it is then treated as empty and rewritten on the next change). */
  readonly error: string | null;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'sessions', 'worktrees.json');
    const { value, error } = readJson<Partial<WorktreesFile>>(this.file, {});
    this.error = error;
    if (value.sessions && typeof value.sessions === 'object') {
      for (const [sessionId, info] of Object.entries(value.sessions)) {
        if (info && typeof info.path === 'string' && typeof info.branch === 'string' && typeof info.base === 'string') this.data.sessions[sessionId] = info;
      }
    }
    if (Array.isArray(value.ignored)) this.data.ignored = value.ignored.filter((path): path is string => typeof path === 'string');
  }

  get(sessionId: string): WorktreeInfo | undefined {
    return this.data.sessions[sessionId];
  }

  entries(): [string, WorktreeInfo][] {
    return Object.entries(this.data.sessions);
  }

  put(sessionId: string, info: WorktreeInfo): void {
    this.data.sessions[sessionId] = info;
    this.save();
  }

  remove(sessionId: string): void {
    if (!(sessionId in this.data.sessions)) return;
    delete this.data.sessions[sessionId];
    this.save();
  }

  isIgnored(path: string): boolean {
    return this.data.ignored.includes(path);
  }

  ignore(path: string): void {
    if (this.isIgnored(path)) return;
    this.data.ignored.push(path);
    this.save();
  }

  unignore(path: string): void {
    const before = this.data.ignored.length;
    this.data.ignored = this.data.ignored.filter((p) => p !== path);
    if (this.data.ignored.length !== before) this.save();
  }

  private save(): void {
    writeFileAtomic(this.file, JSON.stringify(this.data, null, 1));
  }
}
