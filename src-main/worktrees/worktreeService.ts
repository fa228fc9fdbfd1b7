import { join } from 'node:path';
import type { OrphanWorktree, WorktreeInfo } from '../../src-shared/ipc/worktreeContract';
import type { Settings } from '../../src-shared/settings';
import { UserError } from '../errors/errors';
import type { WorktreeStore } from '../store/worktreeStore';
import { mergeIntoBase } from './mergeIntoBase';
import { findOrphans } from './orphans';
import { WorktreeEngine, type CreateStep } from './worktreeEngine';

export interface WorktreeServiceOptions {
  dataDir: string;
  settings: () => Settings;
  store: WorktreeStore;
  /** Starts a session the way `session.new` does; answers its id. */
  startSession: (agentId: string, cwd: string) => Promise<string>;
  /** Closes a session's tab and stops it (its log stays). */
  closeSession: (sessionId: string) => void;
  /** Whether a session exists (open, or its log is on disk). */
  sessionExists: (sessionId: string) => boolean;
  changed: () => void;
  /** Tests only: see `WorktreeEngineOptions.afterStep`. */
  afterStep?: (step: CreateStep) => void;
}

/**
 * Worktree sessions (docs/WORKTREES.md): the engine plus which session owns which worktree.
 * Every destructive step re-checks on the spot what the person confirmed.
 */
export class WorktreeService {
  readonly engine: WorktreeEngine;
  /** The app's own worktrees folder: `<data>/worktrees`. */
  readonly appFolder: string;

  constructor(private readonly options: WorktreeServiceOptions) {
    this.appFolder = join(options.dataDir, 'worktrees');
    this.engine = new WorktreeEngine({
      folder: () => options.settings().worktrees.folder ?? this.appFolder,
      copyFiles: () => options.settings().worktrees.copyFiles,
      journalDir: join(this.appFolder, '.journal'),
      isClaimed: (path) => options.store.entries().some(([, info]) => info.path === path),
      afterStep: options.afterStep,
    });
  }

  info(sessionId: string): WorktreeInfo | undefined {
    return this.options.store.get(sessionId);
  }

  require(sessionId: string): WorktreeInfo {
    const info = this.info(sessionId);
    if (!info) throw new UserError('This session does not work in a worktree.');
    return info;
  }

  /** Creates the worktree, starts the session in it, records the pair; undone if the session cannot start. */
  async newSession(agentId: string, cwd: string, branch: string, base: string): Promise<string> {
    const pending = await this.engine.create(cwd, branch, base);
    let sessionId: string;
    try {
      sessionId = await this.options.startSession(agentId, pending.info.cwd);
    } catch (error) {
      await pending.undo();
      throw error;
    }
    this.options.store.put(sessionId, pending.info);
    pending.done();
    this.options.changed();
    return sessionId;
  }

  async merge(sessionId: string, title: string | null) {
    const info = this.require(sessionId);
    const message = `Merge branch '${info.branch}' into ${info.base}${title ? `\n\n${title}` : ''}`;
    return mergeIntoBase(info, message);
  }

  /** Removes the session's worktree and branch if what would be lost is what the person confirmed; closes the session. */
  async discard(sessionId: string, lose: { files: string[]; commits: string[] }): Promise<void> {
    const info = this.require(sessionId);
    const status = await this.engine.status(info);
    checkConfirmed(
      status.uncommitted.map((c) => c.path),
      status.commits.map((c) => c.sha),
      lose,
    );
    this.options.closeSession(sessionId);
    // The record goes first: a host killed during the removal then leaves only the journal entry,
    // which the next start completes (and a removal that fails leaves an orphan that is offered).
    this.options.store.remove(sessionId);
    this.options.changed();
    await this.engine.remove(info);
  }

  keep(sessionId: string): void {
    this.options.store.put(sessionId, { ...this.require(sessionId), kept: true });
    this.options.changed();
  }

  orphans(): Promise<OrphanWorktree[]> {
    return findOrphans({
      appFolder: this.appFolder,
      records: this.options.store.entries(),
      sessionExists: this.options.sessionExists,
      isIgnored: (path) => this.options.store.isIgnored(path),
    });
  }

  async cleanup(path: string, lose: { files: string[]; commits: string[] }): Promise<void> {
    const orphan = (await this.orphans()).find((o) => o.path === path);
    if (!orphan) throw new UserError(`${path} is not an orphaned worktree of this app.`);
    checkConfirmed(
      orphan.uncommitted.map((c) => c.path),
      orphan.commits.map((c) => c.sha),
      lose,
    );
    await this.engine.remove({ repoRoot: orphan.repoRoot, path, branch: orphan.branch });
    for (const [sessionId, info] of this.options.store.entries()) if (info.path === path) this.options.store.remove(sessionId);
    this.options.changed();
  }

  ignoreOrphan(path: string): void {
    this.options.store.ignore(path);
  }
}

/** Refuses when more would be lost now than the person was shown (the agent kept working meanwhile). */
function checkConfirmed(files: string[], commits: string[], lose: { files: string[]; commits: string[] }): void {
  const newFiles = files.filter((file) => !lose.files.includes(file));
  const newCommits = commits.filter((sha) => !lose.commits.includes(sha));
  if (newFiles.length || newCommits.length) {
    const what = [
      newFiles.length ? `${newFiles.length} more changed file${newFiles.length === 1 ? '' : 's'} (${newFiles.slice(0, 5).join(', ')})` : '',
      newCommits.length ? `${newCommits.length} more commit${newCommits.length === 1 ? '' : 's'}` : '',
    ]
      .filter(Boolean)
      .join(' and ');
    throw new UserError(`Nothing was removed: there is more to lose than you confirmed, ${what}. Look at the review again.`);
  }
}
