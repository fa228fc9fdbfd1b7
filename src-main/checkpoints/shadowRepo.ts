import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type GitPlace, runGit } from './git';

/** One file of a snapshot that differs from another snapshot. */
export interface TreeChange {
  path: string;
  status: 'added' | 'modified' | 'deleted';
}

/** A blob as stored: its bytes and whether it is a symbolic link or executable. */
export interface StoredFile {
  bytes: Buffer;
  mode: string;
}

export interface SnapshotResult {
  commit: string;
  /** False when nothing changed since the last snapshot (the same commit is reused). */
  changed: boolean;
  /** Files left out for their size (relative paths), this time and before. */
  skipped: string[];
  /** The first snapshot found more files than allowed and took none. */
  tooMany?: boolean;
}

const SHA = /^[0-9a-f]{40,64}$/;

/** The folder name of a session folder's shadow repository: a hash of its absolute path. */
export function shadowName(folder: string): string {
  return createHash('sha256').update(folder).digest('hex').slice(0, 24);
}

/**
 * The shadow repository of one folder: `<data>/checkpoints/<hash>/` is its git directory, the
 * person's folder is its work tree, and it has its own index. The person's `.git` is never
 * read or written (git skips `.git` entries of a work tree), their `.gitignore` files apply as
 * they are, and a folder that is no repository works the same. Calls are serialised per folder
 * (one index), in the order they are made.
 */
export class ShadowRepo {
  private readonly place: GitPlace;
  private queue: Promise<unknown> = Promise.resolve();
  private ready = false;

  constructor(
    readonly folder: string,
    readonly gitDir: string,
    env?: NodeJS.ProcessEnv,
  ) {
    this.place = { gitDir, workTree: folder, env };
  }

  /** Runs `job` after every job queued before it (the queue is taken synchronously, so call order is run order). */
  exclusive<T>(job: () => Promise<T>): Promise<T> {
    const run = this.queue.then(job, job);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private git(args: string[], input?: string | Buffer): Promise<Buffer> {
    return runGit(this.place, args, input);
  }

  private async init(): Promise<void> {
    if (this.ready) return;
    if (!existsSync(join(this.gitDir, 'HEAD'))) {
      mkdirSync(this.gitDir, { recursive: true });
      await runGit({ gitDir: this.gitDir, env: this.place.env }, ['init', '--quiet']);
      // gc is ours (pruning); untrackedCache makes an unchanged folder's scan cheap; no CRLF
      // or filemode games: a snapshot holds the bytes as they are on disk.
      const settings: [string, string][] = [
        ['core.autocrlf', 'false'],
        ['core.safecrlf', 'false'],
        ['core.untrackedCache', 'true'],
        ['core.fsmonitor', 'false'],
        ['core.quotePath', 'false'],
        ['core.bare', 'false'],
        ['gc.auto', '0'],
        ['commit.gpgsign', 'false'],
        ['index.version', '4'],
        ['core.splitIndex', 'true'],
      ];
      for (const [key, value] of settings) await runGit({ gitDir: this.gitDir, env: this.place.env }, ['config', key, value]);
      writeFileSync(join(this.gitDir, 'acp-folder'), this.folder);
    }
    // The person's own exclusions of this repository apply too (never written: only read).
    const personExclude = join(this.folder, '.git', 'info', 'exclude');
    if (existsSync(personExclude)) await this.git(['config', 'core.excludesFile', personExclude]);
    this.ready = true;
  }

  private skippedFile(): string {
    return join(this.gitDir, 'acp-skipped.json');
  }

  private readSkipped(): string[] {
    try {
      const value: unknown = JSON.parse(readFileSync(this.skippedFile(), 'utf8'));
      return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
    } catch {
      // No list yet (the first snapshot) or a torn one: the next scan finds the big files again.
      return [];
    }
  }

  /** Files over the limit are listed in the shadow's own `info/exclude` (anchored, globs escaped). */
  private writeSkipped(paths: string[]): void {
    writeFileSync(this.skippedFile(), JSON.stringify(paths));
    mkdirSync(join(this.gitDir, 'info'), { recursive: true });
    const lines = paths.map((path) => `/${path.replace(/([\\*?[\]!#])/g, '\\$1')}`);
    writeFileSync(join(this.gitDir, 'info', 'exclude'), `# files over the checkpoint size limit\n${lines.join('\n')}\n`);
  }

  /** The branch HEAD names (`ref: refs/heads/master` after `git init`). */
  private headRef(): string {
    const text = readFileSync(join(this.gitDir, 'HEAD'), 'utf8').trim();
    return text.startsWith('ref: ') ? text.slice(5) : 'HEAD';
  }

  /**
   * The last snapshot, read from the ref files (a git process costs more than the read): the
   * loose ref, else `packed-refs` (after gc). Null in an empty repository.
   */
  private head(): string | null {
    const ref = this.headRef();
    try {
      const loose = readFileSync(join(this.gitDir, ref), 'utf8').trim();
      if (SHA.test(loose)) return loose;
    } catch {
      // Not loose: packed by gc, or none yet.
    }
    try {
      for (const line of readFileSync(join(this.gitDir, 'packed-refs'), 'utf8').split('\n')) {
        const [sha, name] = line.split(' ');
        if (name === ref && SHA.test(sha)) return sha;
      }
    } catch {
      // No packed refs: an empty repository.
    }
    return null;
  }

  /**
   * Writes a loose ref as git does (a whole file, renamed into place), without a process. Only
   * this app writes this repository, and only inside `exclusive`, so git's ref lock is not needed.
   */
  private writeRef(name: string, commit: string): void {
    const target = join(this.gitDir, name === 'HEAD' ? this.headRef() : name);
    mkdirSync(dirname(target), { recursive: true });
    const temp = `${target}.acp-${process.pid}.tmp`;
    writeFileSync(temp, `${commit}\n`);
    renameSync(temp, target);
  }

  /**
   * Takes a snapshot of the folder: one scan (`git status` against the last snapshot's index),
   * then only the files it names are added. Nothing changed: the last commit is reused, which
   * costs the scan alone. `ref` keeps the commit alive until pruned (null: only HEAD does, the
   * first snapshot of a new session's folder, which the next checkpoint starts from).
   */
  snapshot(ref: string | null, maxFileBytes: number, maxFiles = Infinity): Promise<SnapshotResult> {
    return this.exclusive(async () => {
      await this.init();
      const head = this.head();
      const status = await this.git(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--ignore-submodules=all']);
      const entries = parseStatus(status);
      if (!head && entries.length > maxFiles) return { commit: '', changed: false, skipped: [], tooMany: true };
      let skipped = this.readSkipped();
      // A file that shrank under the limit is taken again; one that is gone is forgotten.
      const stillBig: string[] = [];
      const nowSmall: string[] = [];
      for (const path of skipped) {
        const size = await fileSize(join(this.folder, path));
        if (size === null) continue;
        if (size > maxFileBytes) stillBig.push(path);
        else nowSmall.push(path);
      }
      const add: string[] = [...nowSmall];
      const untrack: string[] = [];
      for (const entry of entries) {
        const size = await fileSize(join(this.folder, entry.path));
        if (size !== null && size > maxFileBytes) {
          stillBig.push(entry.path);
          if (entry.tracked) untrack.push(entry.path);
        } else add.push(entry.path);
      }
      const big = [...new Set(stillBig)].sort();
      if (big.length !== skipped.length || big.some((path, i) => path !== skipped[i])) {
        skipped = big;
        this.writeSkipped(skipped);
      }
      if (head && add.length === 0 && untrack.length === 0) {
        if (ref) this.writeRef(`refs/acp/${ref}`, head);
        return { commit: head, changed: false, skipped };
      }
      // `update-index` with the scan's own list: `add -A` with many pathspecs walks the whole folder again.
      try {
        // The first snapshot (or a big change) is one `add -A`: per-path updates cost more there.
        if (!head || add.length > 1000) throw new Error('many files');
        if (untrack.length) await this.git(['update-index', '--force-remove', '-z', '--stdin'], nul(untrack));
        if (add.length) await this.git(['update-index', '--add', '--remove', '-z', '--stdin'], nul(add));
      } catch {
        // Many files, a nested repository (a folder with its own .git) or a file that changed kind: `add` decides.
        await this.git(['add', '-A']);
      }
      const tree = (await this.git(['write-tree'])).toString('utf8').trim();
      // No parent: each checkpoint is kept alive by its own ref alone, so pruning a ref frees what only it held.
      const commit = (await this.git(['commit-tree', tree, '-m', `checkpoint ${ref ?? 'first'}`])).toString('utf8').trim();
      if (!SHA.test(commit)) throw new Error(`git commit-tree answered "${commit.slice(0, 80)}"`);
      this.writeRef('HEAD', commit);
      if (ref) this.writeRef(`refs/acp/${ref}`, commit);
      return { commit, changed: true, skipped };
    });
  }

  /** What differs between two snapshots (paths relative to the folder). */
  changes(from: string, to: string): Promise<TreeChange[]> {
    return this.exclusive(async () => {
      await this.init();
      if (from === to) return [];
      const out = await this.git(['diff-tree', '-r', '-z', '--no-renames', '--name-status', from, to]);
      const parts = out.toString('utf8').split('\0').filter(Boolean);
      const changes: TreeChange[] = [];
      for (let i = 0; i + 1 < parts.length; i += 2) {
        const code = parts[i];
        changes.push({ path: parts[i + 1], status: code === 'A' ? 'added' : code === 'D' ? 'deleted' : 'modified' });
      }
      return changes;
    });
  }

  /** A file as a snapshot holds it, or null when it is not in it. */
  read(commit: string, path: string): Promise<StoredFile | null> {
    return this.exclusive(async () => {
      await this.init();
      const line = (await this.git(['ls-tree', '-z', '--full-tree', commit, '--', path])).toString('utf8').split('\0')[0];
      const match = /^(\d+) blob ([0-9a-f]+)\t/.exec(line ?? '');
      if (!match) return null;
      return { mode: match[1], bytes: await this.git(['cat-file', 'blob', match[2]]) };
    });
  }

  /** Whether a snapshot is still stored (a pruned one is not). */
  has(commit: string): Promise<boolean> {
    return this.exclusive(async () => {
      await this.init();
      try {
        await this.git(['cat-file', '-e', `${commit}^{commit}`]);
        return true;
      } catch {
        // `cat-file -e` answers "missing" with a non-zero exit.
        return false;
      }
    });
  }

  /** Deletes the refs of checkpoints, then drops what no ref keeps. */
  prune(refs: string[]): Promise<void> {
    return this.exclusive(async () => {
      await this.init();
      if (refs.length) await this.git(['update-ref', '--stdin'], refs.map((ref) => `delete refs/acp/${ref}\n`).join(''));
      await this.git(['reflog', 'expire', '--expire=now', '--all']);
      await this.git(['gc', '--prune=now', '--quiet']);
    });
  }

  /**
   * The checkpoint refs with their commit times (seconds, for pruning by age) and the order they
   * were taken in (the creation time in their name, newCheckpointId; older names: the commit time).
   */
  refs(): Promise<{ ref: string; time: number; order: number }[]> {
    return this.exclusive(async () => {
      await this.init();
      const out = (await this.git(['for-each-ref', '--sort=committerdate', '--format=%(refname:lstrip=2) %(committerdate:unix)', 'refs/acp/'])).toString(
        'utf8',
      );
      return out
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [ref, time] = line.split(' ');
          const stamp = /^cp_([0-9a-z]+)_/.exec(ref);
          return { ref, time: Number(time), order: stamp ? parseInt(stamp[1], 36) : Number(time) * 1000 };
        });
    });
  }
}

interface StatusEntry {
  path: string;
  /** In the last snapshot (not `??`). */
  tracked: boolean;
}

/** `git status --porcelain=v1 -z`: `XY path\0` per entry (no renames: `--no-renames`). */
function parseStatus(out: Buffer): StatusEntry[] {
  const entries: StatusEntry[] = [];
  for (const item of out.toString('utf8').split('\0')) {
    if (item.length < 4) continue;
    entries.push({ path: item.slice(3), tracked: !item.startsWith('??') });
  }
  return entries;
}

async function fileSize(path: string): Promise<number | null> {
  try {
    const stat = await lstat(path);
    return stat.isFile() ? stat.size : 0;
  } catch {
    // Deleted since the scan: a deletion, which `add -A` records.
    return null;
  }
}

function nul(paths: string[]): string {
  return paths.map((path) => `${path}\0`).join('');
}
