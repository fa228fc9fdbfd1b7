import { copyFileSync, cpSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { WorktreeInfo, WorktreeProbe, WorktreeStatus } from '../../src-shared/ipc/worktreeContract';
import { UserError } from '../errors/errors';
import { logWarn } from '../log/mainLog';
import { isValidBranchName, suggestBranch, worktreeFolderName } from './branchName';
import { git, gitOk } from './git';
import { commitsBetween, excludeSpecs, hasTrackedChanges, listWorktrees, resolveCommit, uncommittedChanges } from './gitQueries';
import { gitSupport } from './gitSupport';
import { Journal, type JournalEntry } from './journal';

/** A worktree just made, waiting for its session to be recorded. */
export interface PendingWorktree {
  info: WorktreeInfo;
  /** The session is recorded with it: nothing will undo the creation now. */
  done(): void;
  /** The session could not start: remove the new worktree and branch. */
  undo(): Promise<void>;
}

/** A step of creation after which a test may stop the process (`kill -9` of itself). */
export type CreateStep = 'journaled' | 'added' | 'copied';

export interface WorktreeEngineOptions {
  /** Where new worktrees go (the setting, else `<data>/worktrees`); read at each creation. */
  folder: () => string;
  /** Files to copy from the repository into each new worktree (the setting). */
  copyFiles: () => readonly string[];
  /** The journal of unfinished operations (`<data>/worktrees/.journal`). */
  journalDir: string;
  /** Whether a session is recorded with this worktree: a creation that got that far is finished, not undone. */
  isClaimed?: (path: string) => boolean;
  /** Tests only: called after each step of a creation (a test kills the process there). */
  afterStep?: (step: CreateStep) => void;
}

const DIFF_LIMIT = 2 * 1024 * 1024;

/**
 * Every git worktree operation of the app, through the system `git`: probe a folder, create a
 * worktree on a new branch, its status against the base, commit, remove, and the recovery of
 * operations a killed host left unfinished. Merging is in `mergeIntoBase.ts`.
 */
export class WorktreeEngine {
  readonly journal: Journal;
  /** Creations and removals run one at a time, so recovery never races a live operation. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: WorktreeEngineOptions) {
    this.journal = new Journal(options.journalDir);
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Whether a folder can start a worktree session, with its branches and a suggested name. */
  async probe(cwd: string, agentId?: string): Promise<WorktreeProbe> {
    const none = { repoRoot: null, currentBranch: null, branches: [], suggestedBranch: null, folder: null };
    const support = await gitSupport();
    if (!support.ok) return { available: false, reason: support.reason, gitVersion: support.version, ...none };
    const unavailable = (reason: string) => ({ available: false, reason, gitVersion: support.version, ...none });
    if (!existsSync(cwd) || !statSync(cwd).isDirectory()) return unavailable(`${cwd} is not a folder.`);
    const top = await git(['rev-parse', '--show-toplevel'], cwd);
    if (top.code !== 0) return unavailable('The workspace folder is not inside a git repository.');
    const repoRoot = top.stdout.trim();
    if (!(await resolveCommit(repoRoot, 'HEAD'))) return unavailable('The repository has no commits yet: a worktree starts from a commit.');
    const current = await git(['symbolic-ref', '--quiet', '--short', 'HEAD'], repoRoot);
    const currentBranch = current.code === 0 ? current.stdout.trim() : null;
    const all = (await gitOk(['for-each-ref', '--format=%(refname:short)', 'refs/heads'], repoRoot)).split('\n').filter(Boolean);
    const branches = currentBranch ? [currentBranch, ...all.filter((b) => b !== currentBranch)] : all;
    return {
      available: true,
      reason: null,
      gitVersion: support.version,
      repoRoot,
      currentBranch,
      branches,
      suggestedBranch: suggestBranch(agentId, all),
      folder: this.options.folder(),
    };
  }

  /**
   * Creates a worktree on a new branch `branch` from the local branch `base`, copying the
   * setting's files. Journaled: a kill at any point is undone by `recover()`, which also runs
   * first here, so a crashed attempt never blocks this one. The journal entry stays until the
   * caller has recorded the session that owns the worktree (`done()`), or gives up (`undo()`).
   */
  create(cwd: string, branch: string, base: string): Promise<PendingWorktree> {
    return this.serial(async () => {
      await this.recoverNow();
      const support = await gitSupport();
      if (!support.ok) throw new UserError(support.reason ?? 'git is not usable.');
      const top = await git(['rev-parse', '--show-toplevel'], cwd);
      if (top.code !== 0) throw new UserError(`${cwd} is not inside a git repository.`);
      const checkout = top.stdout.trim();
      const prefix = (await gitOk(['rev-parse', '--show-prefix'], cwd)).trim();
      // The main working tree owns the repository: recovery and merges run there.
      const repoRoot = (await listWorktrees(checkout))[0]?.path ?? checkout;
      if (!(await isValidBranchName(branch, repoRoot))) throw new UserError(`"${branch}" is not a valid branch name.`);
      if (!(await isValidBranchName(base, repoRoot))) throw new UserError(`"${base}" is not a valid branch name.`);
      if (await resolveCommit(repoRoot, `refs/heads/${branch}`)) throw new UserError(`A branch named "${branch}" already exists: choose another name.`);
      const baseCommit = await resolveCommit(repoRoot, `refs/heads/${base}`);
      if (!baseCommit) throw new UserError(`There is no local branch "${base}" to start from.`);
      const folder = resolve(this.options.folder());
      mkdirSync(folder, { recursive: true });
      let path = join(folder, worktreeFolderName(repoRoot, branch));
      for (let n = 2; existsSync(path); n++) path = join(folder, `${worktreeFolderName(repoRoot, branch)}-${n}`);

      const entry = this.journal.begin({ op: 'create', repoRoot, path, branch, baseCommit });
      this.options.afterStep?.('journaled');
      try {
        await gitOk(['worktree', 'add', '--no-track', '-b', branch, path, baseCommit], repoRoot);
        this.options.afterStep?.('added');
        const copied = copyInto(checkout, path, this.options.copyFiles());
        this.options.afterStep?.('copied');
        const info: WorktreeInfo = { path, branch, base, baseCommit, repoRoot, cwd: prefix ? join(path, prefix) : path, copied, createdAt: Date.now() };
        this.unfinished.add(entry.id);
        return {
          info,
          done: () => {
            this.unfinished.delete(entry.id);
            this.journal.end(entry);
          },
          undo: () => {
            this.unfinished.delete(entry.id);
            return this.serial(() => this.undoCreate(entry));
          },
        };
      } catch (error) {
        await this.undoCreate(entry);
        throw error;
      }
    });
  }

  /** Creations of this process whose session is not recorded yet: not leftovers of a crash. */
  private readonly unfinished = new Set<string>();

  /** Removes a worktree and its branch (whatever is in them: the person confirmed). Journaled and idempotent. */
  remove(target: { repoRoot: string | null; path: string; branch: string | null }): Promise<void> {
    const { repoRoot } = target;
    // Not a worktree at all (a folder a killed `worktree add` left): deleting it is the whole job.
    if (!repoRoot) return this.serial(async () => rmSync(target.path, { recursive: true, force: true }));
    return this.serial(async () => {
      const entry = this.journal.begin({ op: 'remove', repoRoot, path: target.path, branch: target.branch ?? '' });
      await this.finishRemove(entry);
    });
  }

  /** Finishes or undoes what a killed host left unfinished (at start, and before each creation). */
  recover(): Promise<void> {
    return this.serial(() => this.recoverNow());
  }

  private async recoverNow(): Promise<void> {
    for (const entry of this.journal.pending()) {
      // A creation of this process that waits for its session to be recorded is not a leftover.
      if (this.unfinished.has(entry.id)) continue;
      try {
        // Killed between recording the session and ending the entry: the worktree is the session's now.
        if (entry.op === 'create' && this.options.isClaimed?.(entry.path)) this.journal.end(entry);
        else if (entry.op === 'create') await this.undoCreate(entry);
        else await this.finishRemove(entry);
      } catch (error) {
        logWarn(`Recovering an unfinished worktree ${entry.op} of ${entry.path} (tried again at the next start)`, error);
      }
    }
  }

  private async undoCreate(entry: JournalEntry): Promise<void> {
    await this.dropWorktree(entry.repoRoot, entry.path);
    // The branch goes only while it is still where it was made: nothing of anybody's is lost.
    const at = await resolveCommit(entry.repoRoot, `refs/heads/${entry.branch}`);
    if (at && at === entry.baseCommit) await gitOk(['branch', '-D', entry.branch], entry.repoRoot);
    this.journal.end(entry);
  }

  private async finishRemove(entry: JournalEntry): Promise<void> {
    await this.dropWorktree(entry.repoRoot, entry.path);
    if (entry.branch && (await resolveCommit(entry.repoRoot, `refs/heads/${entry.branch}`))) await gitOk(['branch', '-D', entry.branch], entry.repoRoot);
    this.journal.end(entry);
  }

  /** `worktree remove`, then whatever is left of the folder, then `prune`: each step fine to repeat. */
  private async dropWorktree(repoRoot: string, path: string): Promise<void> {
    if (resolve(path) === resolve(repoRoot)) throw new Error(`Refusing to remove the repository's own working tree (${path}).`);
    if (existsSync(repoRoot)) {
      // Twice --force: also a worktree git left locked ("initializing") when killed inside `worktree add`.
      const removed = await git(['worktree', 'remove', '--force', '--force', path], repoRoot);
      if (removed.code !== 0 && existsSync(path)) logWarn(`git worktree remove ${path}: ${removed.stderr.trim()} (the folder is deleted instead)`);
    }
    rmSync(path, { recursive: true, force: true });
    if (existsSync(repoRoot)) await gitOk(['worktree', 'prune'], repoRoot);
  }

  /** The branch against its base: commits both ways, uncommitted changes, and the whole diff. */
  async status(info: WorktreeInfo): Promise<WorktreeStatus> {
    const { repoRoot, branch, base, path } = info;
    const exists = existsSync(path);
    const branchRef = `refs/heads/${branch}`;
    const baseRef = `refs/heads/${base}`;
    const hasBranch = Boolean(await resolveCommit(repoRoot, branchRef));
    const hasBase = Boolean(await resolveCommit(repoRoot, baseRef));
    const commits = hasBranch ? await commitsBetween(repoRoot, hasBase ? [baseRef] : [], branchRef) : [];
    const behind = hasBranch && hasBase ? (await commitsBetween(repoRoot, [branchRef], baseRef)).length : 0;
    const uncommitted = exists ? await uncommittedChanges(path, info.copied) : [];
    const listed = existsSync(repoRoot) ? await listWorktrees(repoRoot) : [];
    const baseTree = listed.find((tree) => tree.branch === base)?.path ?? null;
    const { diff, truncated } = exists && hasBase ? await wholeDiff(path, baseRef, info.copied) : { diff: '', truncated: false };
    return {
      info,
      exists,
      ahead: commits.length,
      behind,
      commits,
      uncommitted,
      diff,
      diffTruncated: truncated,
      baseCheckedOutIn: baseTree,
      baseDirty: baseTree ? await hasTrackedChanges(baseTree) : false,
    };
  }

  /** Commits every change in the worktree (never the copied setting files) on its branch. */
  async commit(info: WorktreeInfo, message: string): Promise<string> {
    if (!existsSync(info.path)) throw new UserError(`The worktree ${info.path} is gone.`);
    if ((await uncommittedChanges(info.path, info.copied)).length === 0) throw new UserError('There is nothing to commit.');
    await gitOk(['add', '--all', '--', '.', ...excludeSpecs(info.copied)], info.path);
    const result = await git(['commit', '--no-verify', '-m', message], info.path);
    if (result.code !== 0) throw new UserError(`git commit failed: ${(result.stderr || result.stdout).trim()}`);
    return (await gitOk(['rev-parse', 'HEAD'], info.path)).trim();
  }
}

/** Copies the listed files (or folders) from the person's checkout into the new worktree; missing ones are skipped. */
function copyInto(from: string, to: string, files: readonly string[]): string[] {
  const copied: string[] = [];
  for (const file of files) {
    const source = join(from, file);
    const target = join(to, file);
    // The setting's schema refuses absolute paths and "..": this only guards against a change of that rule.
    if (!source.startsWith(from) || !target.startsWith(to)) continue;
    if (!existsSync(source)) continue;
    mkdirSync(dirname(target), { recursive: true });
    if (statSync(source).isDirectory()) cpSync(source, target, { recursive: true });
    else copyFileSync(source, target);
    copied.push(file);
  }
  return copied;
}

/**
 * The worktree against the base, uncommitted and new files included, without touching the
 * worktree's index: `git add` runs on a copy of it (`GIT_INDEX_FILE`).
 */
async function wholeDiff(path: string, baseRef: string, skip: readonly string[]): Promise<{ diff: string; truncated: boolean }> {
  const index = join(tmpdir(), `acp-worktree-index-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  try {
    const realIndex = (await gitOk(['rev-parse', '--path-format=absolute', '--git-path', 'index'], path)).trim();
    if (existsSync(realIndex)) copyFileSync(realIndex, index);
    const env = { GIT_INDEX_FILE: index };
    await gitOk(['add', '--all', '--', '.', ...excludeSpecs(skip)], path, env);
    const mergeBase = (await gitOk(['merge-base', baseRef, 'HEAD'], path)).trim();
    const diff = await gitOk(['diff', '--cached', '--no-color', '--no-ext-diff', mergeBase], path, env);
    return diff.length > DIFF_LIMIT ? { diff: diff.slice(0, DIFF_LIMIT), truncated: true } : { diff, truncated: false };
  } finally {
    rmSync(index, { force: true });
  }
}
