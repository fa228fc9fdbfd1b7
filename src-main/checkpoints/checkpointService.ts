import { isUtf8 } from 'node:buffer';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { lstat, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { RestorePreview, RestorePreviewFile, ReviewFile } from '../../src-shared/ipc/checkpointContract';
import { lineHunks, revertHunk } from '../../src-shared/diff/lineHunks';
import type { ChangedPath, FolderSnapshot } from '../../src-shared/session/checkpointEvents';
import type { ContentBlock, SessionEventBody } from '../../src-shared/session/events';
import type { SessionState } from '../../src-shared/session/state';
import { UserError } from '../errors/errors';
import { logWarn } from '../log/mainLog';
import { GIT_MISSING, gitVersion } from './git';
import { type FileStep, Journal } from './journal';
import { commitOf, labelOf, lastAfter, lastSnapshot, reviewScope, turnOf } from './checkpointState';
import { fileInFolders } from './fileInFolders';
import { ShadowRepo, shadowName, type StoredFile } from './shadowRepo';

export interface CheckpointSettings {
  enabled: boolean;
  maxFileMB: number;
  maxAgeDays: number;
  maxTotalMB: number;
}

/** What the service needs of a session (`Session` fits): its folders, its state, its recorder. */
export interface CheckpointSession {
  readonly id: string;
  readonly roots: string[];
  fold(): SessionState;
  record(body: SessionEventBody): unknown;
  /** Non-null while a turn runs. */
  readonly turn: unknown;
}

export interface CheckpointServiceOptions {
  dataDir: string;
  settings: () => CheckpointSettings;
  /** The environment git runs in (tests: a PATH without git). */
  env?: NodeJS.ProcessEnv;
}

/** A folder with more files than this (outside .gitignore) at its first checkpoint gets none: a snapshot would take minutes. */
const MAX_FILES = 100_000;

/** Texts larger than this are not diffed in the panel (kept or rejected whole). */
const MAX_REVIEW_TEXT = 1024 * 1024;

interface Taken {
  checkpointId: string;
  folders: FolderSnapshot[];
  error?: string;
}

/**
 * Checkpoints for every agent (issue 24): a snapshot of each session folder before and after
 * every turn in a shadow git repository (`shadowRepo.ts`), what each turn changed, the Review
 * panel's diffs with keep and reject, and restores. Files are written only through the journal
 * (`journal.ts`), only inside the session's folders.
 */
export class CheckpointService {
  private readonly repos = new Map<string, ShadowRepo>();
  /** Folders found too large for checkpoints in this run (not scanned again until the next start). */
  private readonly tooLarge = new Set<string>();
  private git: Promise<string | null> | null = null;
  readonly journal: Journal;
  /** Test hooks: where a killed host would stop a restore or a reject. */
  crash: Parameters<Journal['apply']>[3] = {};

  constructor(private readonly options: CheckpointServiceOptions) {
    this.journal = new Journal(join(this.home(), 'journal'));
  }

  private home(): string {
    return join(this.options.dataDir, 'checkpoints');
  }

  private repo(folder: string): ShadowRepo {
    let repo = this.repos.get(folder);
    if (!repo) this.repos.set(folder, (repo = new ShadowRepo(folder, join(this.home(), shadowName(folder)), this.options.env)));
    return repo;
  }

  /** Why there are no checkpoints (turned off, no git), or null when there are. */
  async unavailable(): Promise<string | null> {
    if (!this.options.settings().enabled) return 'Checkpoints are turned off (settings.json: "checkpoints": { "enabled": false }).';
    this.git ??= gitVersion(this.options.env);
    return (await this.git) ? null : GIT_MISSING;
  }

  /**
   * Takes the first snapshot of folders that have none yet, in the background (a new session):
   * it stores every file once, which in a big project takes seconds the first prompt would wait.
   */
  warm(roots: string[]): void {
    void (async () => {
      if (await this.unavailable()) return;
      const limit = this.options.settings().maxFileMB * 1024 * 1024;
      for (const root of roots) {
        if (!root || !existsSync(root) || this.refused(root)) continue;
        const repo = this.repo(root);
        if (existsSync(join(repo.gitDir, 'HEAD'))) continue;
        const done = this.journal.checkpointStarted(root, repo.gitDir);
        const result = await repo.snapshot(null, limit, MAX_FILES).finally(done);
        if (result.tooMany) this.tooLarge.add(root);
      }
    })().catch((error: unknown) => logWarn('The first checkpoint of a new session’s folders', error));
  }

  /** Why a folder gets no checkpoints at all: the home folder or a file system root (a snapshot of everything), or too many files. */
  private refused(root: string): string | null {
    const full = resolve(root);
    if (full === resolve(homedir()) || full === dirname(full))
      return `No checkpoints of ${root}: it is ${full === dirname(full) ? 'the root of the file system' : 'your home folder'} (open the session in a project folder to have them).`;
    if (this.tooLarge.has(root)) return `No checkpoints of ${root}: it holds more than ${MAX_FILES.toLocaleString('en')} files outside .gitignore.`;
    return null;
  }

  /** Settles what a host killed during a checkpoint, a restore or a reject left (one line each). */
  recover(): string[] {
    return this.journal.recover();
  }

  // ---------------------------------------------------------------- turns

  private async take(session: CheckpointSession): Promise<Taken> {
    const checkpointId = newCheckpointId();
    const roots = session.roots.filter(Boolean);
    const why = await this.unavailable();
    if (why) return { checkpointId, folders: roots.map((root) => ({ root, commit: null })), error: why };
    const limit = this.options.settings().maxFileMB * 1024 * 1024;
    const folders = await Promise.all(
      roots.map(async (root): Promise<FolderSnapshot & { refused?: string }> => {
        try {
          if (!existsSync(root)) return { root, commit: null };
          const refused = this.refused(root);
          if (refused) return { root, commit: null, refused };
          const repo = this.repo(root);
          const done = this.journal.checkpointStarted(root, repo.gitDir);
          const result = await repo.snapshot(checkpointId, limit, MAX_FILES).finally(done);
          if (result.tooMany) {
            this.tooLarge.add(root);
            return { root, commit: null, refused: `No checkpoints of ${root}: it holds more than ${MAX_FILES.toLocaleString('en')} files outside .gitignore.` };
          }
          return { root, commit: result.commit, ...(result.skipped.length ? { skipped: result.skipped } : {}) };
        } catch (error) {
          logWarn(`Checkpoint of ${root}`, error);
          return { root, commit: null };
        }
      }),
    );
    const refusals = folders.flatMap((folder) => (folder.refused ? [folder.refused] : []));
    const failed = folders.filter((folder) => !folder.commit && !folder.refused && existsSync(folder.root)).map((folder) => folder.root);
    const error = [...refusals, ...(failed.length ? [`No checkpoint of ${failed.join(', ')} (see the log).`] : [])].join(' ');
    return { checkpointId, folders: folders.map(({ refused: _refused, ...folder }) => folder), ...(error ? { error } : {}) };
  }

  private recordTaken(session: CheckpointSession, taken: Taken, reason: 'turn' | 'turnEnd' | 'restore', turnId: string | null): void {
    const before = session.fold().checkpoints;
    session.record({
      kind: 'checkpoint.taken',
      checkpointId: taken.checkpointId,
      reason,
      turnId,
      folders: taken.folders,
      ...(taken.error ? { error: taken.error } : {}),
    });
    if (taken.error && before?.unavailable !== taken.error) session.record({ kind: 'notice', level: 'warning', message: taken.error });
    // The note of left-out files, when the list changes (not on every turn).
    const skipped = taken.folders.flatMap((folder) => (folder.skipped ?? []).map((path) => path));
    const last = before ? lastSnapshot(before) : undefined;
    const lastSkipped = (last ?? []).flatMap((folder) => folder.skipped ?? []);
    if (skipped.length && skipped.join('\0') !== lastSkipped.join('\0')) {
      const limit = this.options.settings().maxFileMB;
      const shown = skipped.length > 10 ? `${skipped.slice(0, 10).join(', ')} and ${skipped.length - 10} more` : skipped.join(', ');
      session.record({
        kind: 'notice',
        level: 'info',
        message: `Checkpoints leave out ${skipped.length} file(s) over ${limit} MB (not restorable): ${shown}.`,
      });
    }
  }

  /** Before a turn: a checkpoint of every folder. Returns the text block that tells the agent about a restore, if one is due. */
  async beforeTurn(session: CheckpointSession, turnId: string): Promise<ContentBlock[]> {
    const note = session.fold().checkpoints?.pendingNote;
    // Turned off by the person: nothing recorded, nothing said (the Review panel says it is off).
    if (!this.options.settings().enabled && !note) return [];
    const taken = await this.take(session);
    this.recordTaken(session, taken, 'turn', turnId);
    return note ? [{ type: 'text', text: note }] : [];
  }

  /** After a turn: a checkpoint again, and what changed between the two ("N files changed"). */
  async afterTurn(session: CheckpointSession, turnId: string): Promise<void> {
    if (!this.options.settings().enabled) return;
    const taken = await this.take(session);
    if (taken.error && !taken.folders.some((folder) => folder.commit)) return;
    this.recordTaken(session, taken, 'turnEnd', turnId);
    const state = session.fold().checkpoints;
    const before = state?.turns[turnId]?.before;
    if (!state || !before) return;
    const files = await this.compare(state.snapshots[before] ?? [], taken.folders);
    session.record({ kind: 'turn.changes', turnId, before, after: taken.checkpointId, files });
  }

  private async compare(from: FolderSnapshot[], to: FolderSnapshot[]): Promise<ChangedPath[]> {
    const files: ChangedPath[] = [];
    for (const folder of to) {
      const start = from.find((f) => f.root === folder.root)?.commit;
      if (!start || !folder.commit) continue;
      for (const change of await this.repo(folder.root).changes(start, folder.commit)) files.push({ root: folder.root, ...change });
    }
    return files;
  }

  // ---------------------------------------------------------------- review

  /** The files of a turn (or of the whole session) with their checkpoint and disk texts. */
  async review(session: CheckpointSession, scope: string): Promise<{ files: ReviewFile[]; unavailable: string | null }> {
    const state = session.fold().checkpoints;
    const unavailable = await this.unavailable();
    if (!state) return { files: [], unavailable };
    const { base, after, files } = reviewScope(state, scope);
    const out: ReviewFile[] = [];
    for (const file of files) {
      const baseCommit = commitOf(state, base, file.root);
      if (!baseCommit) continue;
      const repo = this.repo(file.root);
      const old = await repo.read(baseCommit, file.path);
      const disk = await readDisk(this.target(session, file.root, file.path));
      if (sameBytes(old?.bytes ?? null, disk)) continue; // nothing of it left to review
      const afterCommit = after ? commitOf(state, after, file.root) : null;
      const left = afterCommit ? await repo.read(afterCommit, file.path) : null;
      const binary = isBinary(old?.bytes) || isBinary(disk);
      const tooLarge = (old?.bytes.length ?? 0) > MAX_REVIEW_TEXT || (disk?.length ?? 0) > MAX_REVIEW_TEXT;
      out.push({
        root: file.root,
        path: file.path,
        status: old === null ? 'added' : disk === null ? 'deleted' : 'modified',
        oldText: old && !binary && !tooLarge ? old.bytes.toString('utf8') : old ? '' : null,
        newText: disk && !binary && !tooLarge ? disk.toString('utf8') : disk ? '' : null,
        binary,
        tooLarge,
        diskHash: hashOf(disk),
        editedSince: afterCommit !== null && !sameBytes(left?.bytes ?? null, disk),
      });
    }
    return { files: out, unavailable };
  }

  keep(session: CheckpointSession, scope: string, root: string, path: string, hunks: string[]): void {
    this.target(session, root, path);
    session.record({ kind: 'review.kept', scope, root, path, hunks });
  }

  /** Writes back the checkpoint's text of one hunk (or the whole file), refusing when the disk moved on since `diskHash`. */
  async reject(session: CheckpointSession, input: { scope: string; root: string; path: string; hunk: string | null; diskHash: string }): Promise<void> {
    if (session.turn) throw new UserError('A turn is running: reject its changes after it ends.');
    const target = this.target(session, input.root, input.path);
    const state = session.fold().checkpoints;
    if (!state) throw new UserError('This session has no checkpoints.');
    const baseCommit = commitOf(state, reviewScope(state, input.scope).base, input.root);
    if (!baseCommit) throw new UserError('There is no checkpoint to take the old text from.');
    const repo = this.repo(input.root);
    const old = await repo.read(baseCommit, input.path);
    const disk = await readDisk(target);
    if (hashOf(disk) !== input.diskHash)
      throw new UserError(
        `${input.path} changed on disk since the Review panel showed it, so nothing was written. Look at its diff as it is now and try again.`,
      );
    let step: FileStep;
    if (input.hunk === null) {
      step = { target, bytes: old?.bytes ?? null, mode: modeOf(old) };
    } else {
      if (!disk || isBinary(disk) || isBinary(old?.bytes)) throw new UserError(`${input.path} is not a text file: reject it whole.`);
      const hunk = lineHunks(old?.bytes.toString('utf8') ?? '', disk.toString('utf8')).find((h) => h.key === input.hunk);
      if (!hunk) throw new UserError(`That change is no longer in ${input.path}.`);
      step = { target, bytes: Buffer.from(revertHunk(disk.toString('utf8'), hunk), 'utf8'), mode: (await lstat(target)).mode & 0o777 };
    }
    this.journal.apply('reject', input.path, [step], this.crash);
    session.record({ kind: 'review.rejected', scope: input.scope, root: input.root, path: input.path, hunk: input.hunk });
  }

  // ---------------------------------------------------------------- restore

  /** What restoring to a checkpoint would change: compared with a fresh snapshot (which the restore keeps as its undo). */
  async preview(session: CheckpointSession, checkpointId: string): Promise<RestorePreview & { now: Taken }> {
    const state = session.fold().checkpoints;
    const target = state?.snapshots[checkpointId];
    if (!state || !target) throw new UserError('There is no such checkpoint in this session.');
    const why = await this.unavailable();
    if (why) throw new UserError(why);
    for (const folder of target) {
      if (folder.commit && !(await this.repo(folder.root).has(folder.commit)))
        throw new UserError(
          `This checkpoint was pruned (older than ${this.options.settings().maxAgeDays} days, or over the space limit): nothing can be restored from it.`,
        );
    }
    const now = await this.take(session);
    const last = lastAfter(state);
    const files: RestorePreviewFile[] = [];
    const skipped: string[] = [];
    for (const folder of now.folders) {
      const from = target.find((f) => f.root === folder.root)?.commit;
      if (!from || !folder.commit) continue;
      const repo = this.repo(folder.root);
      const edited = new Set(last ? (await repo.changes(commitOf(state, last, folder.root) ?? folder.commit, folder.commit)).map((c) => c.path) : []);
      const big = new Set(folder.skipped ?? []);
      for (const change of await repo.changes(from, folder.commit)) {
        // In the checkpoint, not in the snapshot of now, yet on disk: over the size limit or ignored now.
        if (change.status === 'deleted' && existsSync(join(folder.root, change.path))) {
          skipped.push(`${change.path} (${big.has(change.path) ? 'over the size limit' : 'ignored by .gitignore now'}: left as it is)`);
          continue;
        }
        files.push({
          root: folder.root,
          path: change.path,
          status: change.status,
          action: change.status === 'added' ? 'delete' : change.status === 'deleted' ? 'recreate' : 'restore',
          editedByYou: edited.has(change.path),
        });
      }
    }
    return { checkpointId, label: labelOf(session.fold(), checkpointId), files, skipped, now };
  }

  /** Restores the files to a checkpoint, after a checkpoint of their state now (the restore's undo). */
  async restore(session: CheckpointSession, checkpointId: string): Promise<{ restored: number; undoCheckpointId: string }> {
    if (session.turn) throw new UserError('A turn is running: restore after it ends (or stop it first).');
    const plan = await this.preview(session, checkpointId);
    this.recordTaken(session, plan.now, 'restore', null);
    const target = session.fold().checkpoints!.snapshots[checkpointId];
    const steps: FileStep[] = [];
    for (const file of plan.files) {
      const commit = target.find((f) => f.root === file.root)?.commit;
      const stored = commit ? await this.repo(file.root).read(commit, file.path) : null;
      if (stored?.mode === '120000') continue; // a symbolic link: left as it is
      steps.push({ target: this.target(session, file.root, file.path), bytes: stored?.bytes ?? null, mode: modeOf(stored) });
    }
    this.journal.apply('restore', `to before message ${plan.label}`, steps, this.crash);
    const state = session.fold();
    session.record({
      kind: 'checkpoint.restored',
      checkpointId,
      undoCheckpointId: plan.now.checkpointId,
      turnId: turnOf(state.checkpoints!, checkpointId),
      label: plan.label,
      files: plan.files.map(({ root, path, status }) => ({ root, path, status })),
    });
    return { restored: steps.length, undoCheckpointId: plan.now.checkpointId };
  }

  // ---------------------------------------------------------------- pruning

  /**
   * Drops checkpoints older than the age limit, then the oldest ones while the checkpoints take
   * more than the space limit. Runs `git gc` only in a repository that lost a checkpoint.
   */
  async prune(now = Date.now()): Promise<{ removed: number; bytes: number }> {
    const settings = this.options.settings();
    if ((await this.unavailable()) || !existsSync(this.home())) return { removed: 0, bytes: 0 };
    let removed = 0;
    const folders = readdirSync(this.home()).filter((name) => /^[0-9a-f]{24}$/.test(name));
    const repos = folders.map((name) => {
      const gitDir = join(this.home(), name);
      let folder = '';
      try {
        folder = readFileSyncSafe(join(gitDir, 'acp-folder'));
      } catch {
        // A repository without its folder note: pruned by age like the others, never restored from.
      }
      return this.repos.get(folder) ?? new ShadowRepo(folder || gitDir, gitDir, this.options.env);
    });
    const cutoff = now / 1000 - settings.maxAgeDays * 86_400;
    for (const repo of repos) {
      const old = (await repo.refs()).filter((ref) => ref.time < cutoff).map((ref) => ref.ref);
      if (old.length) {
        await repo.prune(old);
        removed += old.length;
      }
    }
    let bytes = repos.reduce((total, repo) => total + du(repo.gitDir), 0);
    const limit = settings.maxTotalMB * 1024 * 1024;
    while (bytes > limit) {
      const all = (await Promise.all(repos.map(async (repo) => (await repo.refs()).map((ref) => ({ ...ref, repo }))))).flat().sort((a, b) => a.order - b.order);
      if (all.length <= repos.length) break; // the newest checkpoint of each folder stays
      const drop = all.slice(0, Math.max(1, Math.floor(all.length / 4)));
      for (const repo of repos) {
        const refs = drop.filter((item) => item.repo === repo).map((item) => item.ref);
        if (refs.length) await repo.prune(refs);
      }
      removed += drop.length;
      bytes = repos.reduce((total, repo) => total + du(repo.gitDir), 0);
    }
    return { removed, bytes };
  }

  /** The disk space all checkpoints take. */
  spaceUsed(): number {
    return existsSync(this.home()) ? du(this.home()) : 0;
  }

  /** A file of a session folder, refused when it is not inside one (nothing is written outside them). */
  private target(session: CheckpointSession, root: string, path: string): string {
    return fileInFolders(session.roots, root, path);
  }
}

async function readDisk(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw error;
  }
}

function sameBytes(a: Buffer | null, b: Buffer | null): boolean {
  if (a === null || b === null) return a === b;
  return a.equals(b);
}

/**
 * Not text the panel can diff and write back: a NUL byte, or bytes that are not UTF-8 (a
 * Latin-1 file read as UTF-8 and written back would lose every byte it could not decode).
 */
function isBinary(bytes: Buffer | null | undefined): boolean {
  return Boolean(bytes && (bytes.subarray(0, 8000).includes(0) || !isUtf8(bytes)));
}

function hashOf(bytes: Buffer | null): string {
  return bytes === null ? 'missing' : createHash('sha1').update(bytes).digest('hex');
}

function modeOf(stored: StoredFile | null): number | undefined {
  return stored?.mode === '100755' ? 0o755 : stored ? 0o644 : undefined;
}

function readFileSyncSafe(path: string): string {
  return readFileSync(path, 'utf8').trim();
}

function du(path: string): number {
  let total = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    total += entry.isDirectory() ? du(full) : statSync(full).size;
  }
  return total;
}

let lastStamp = 0;

/**
 * `cp_<creation ms, base 36>_<uuid>`: the name carries the order checkpoints were taken in. Commit
 * times cannot: they have whole seconds, and an unchanged checkpoint reuses an older commit.
 */
function newCheckpointId(): string {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return `cp_${lastStamp.toString(36)}_${randomUUID()}`;
}
