import { randomUUID } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { logWarn } from '../log/mainLog';

/** One file a restore or a reject changes: new bytes (renamed into place), or gone. */
export interface FileStep {
  target: string;
  /** The bytes and mode to write; null deletes the file. */
  bytes: Buffer | null;
  mode?: number;
}

interface JournalStep {
  target: string;
  /** Where the new bytes wait until the rename (null: a deletion). */
  temp: string | null;
}

interface JournalFile {
  op: string;
  what: string;
  /** `prepare`: temp files being written (roll back); `commit`: renames under way (roll forward). */
  phase: 'prepare' | 'commit' | 'checkpoint';
  steps: JournalStep[];
  at: number;
}

function writeDurably(path: string, data: Buffer | string, mode?: number): void {
  const fd = openSync(path, 'w', mode);
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes of the person's files that survive the host being killed half-way: every new file is
 * first written next to its target (`.name.acp-<id>.tmp`, flushed), the journal then says
 * "commit", and only then are they renamed into place (each rename is atomic). On the next
 * start `recover()` finishes a committed change and throws away a prepared one, so the folders
 * are either as before or as after, never half-written; it says which, for the person.
 */
export class Journal {
  constructor(readonly dir: string) {}

  private file(id: string): string {
    return join(this.dir, `${id}.json`);
  }

  private save(id: string, journal: JournalFile): void {
    mkdirSync(this.dir, { recursive: true });
    const temp = `${this.file(id)}.tmp`;
    writeDurably(temp, JSON.stringify(journal));
    renameSync(temp, this.file(id));
  }

  /**
   * Applies the steps all-or-nothing (as far as a crash goes); `what` names it in the report after
   * a crash. `crash` is for tests: it throws where a killed host would stop.
   */
  apply(op: 'restore' | 'reject', what: string, steps: FileStep[], crash: { beforeCommit?: () => void; beforeRename?: (index: number) => void } = {}): void {
    const id = randomUUID();
    const planned: JournalStep[] = steps.map((step) => ({
      target: step.target,
      temp: step.bytes === null ? null : join(dirname(step.target), `.${basename(step.target)}.acp-${id.slice(0, 8)}.tmp`),
    }));
    this.save(id, { op, what, phase: 'prepare', steps: planned, at: Date.now() });
    steps.forEach((step, i) => {
      const temp = planned[i].temp;
      if (temp === null || step.bytes === null) return;
      mkdirSync(dirname(temp), { recursive: true });
      writeDurably(temp, step.bytes, step.mode);
    });
    crash.beforeCommit?.();
    this.save(id, { op, what, phase: 'commit', steps: planned, at: Date.now() });
    finish(planned, crash.beforeRename);
    rmSync(this.file(id), { force: true });
  }

  /** Marks a checkpoint in progress (it writes only the shadow repository); returns the end mark. */
  checkpointStarted(what: string, gitDir: string): () => void {
    const id = randomUUID();
    this.save(id, { op: 'checkpoint', what, phase: 'checkpoint', steps: [{ target: gitDir, temp: null }], at: Date.now() });
    return () => rmSync(this.file(id), { force: true });
  }

  /** Settles what a killed host left half done; one line per operation for the person. */
  recover(): string[] {
    if (!existsSync(this.dir)) return [];
    const reports: string[] = [];
    for (const name of readdirSync(this.dir)) {
      const path = join(this.dir, name);
      if (name.endsWith('.json.tmp')) {
        rmSync(path, { force: true });
        continue;
      }
      if (!name.endsWith('.json')) continue;
      let journal: JournalFile;
      try {
        journal = JSON.parse(readFileSync(path, 'utf8')) as JournalFile;
      } catch (error) {
        logWarn(`Checkpoint journal ${path} is unreadable; removed`, error);
        rmSync(path, { force: true });
        continue;
      }
      if (journal.phase === 'checkpoint') {
        // Only the shadow repository was being written: a stale lock would stop the next snapshot.
        for (const step of journal.steps) for (const lock of ['index.lock', 'HEAD.lock']) rmSync(join(step.target, lock), { force: true });
        reports.push(`The app stopped while taking a checkpoint (${journal.what}); your files were not touched, and the next checkpoint starts afresh.`);
      } else if (journal.phase === 'commit') {
        finish(journal.steps);
        reports.push(
          `The app stopped during a ${journal.op} (${journal.what}); it was completed at this start: ${journal.steps.length} file(s) are as the ${journal.op} left them.`,
        );
      } else {
        for (const step of journal.steps) if (step.temp) rmSync(step.temp, { force: true });
        reports.push(`The app stopped before a ${journal.op} (${journal.what}) changed anything; your files are as they were before it.`);
      }
      rmSync(path, { force: true });
    }
    return reports;
  }
}

/** Renames every prepared file into place and deletes the deleted ones; idempotent (run again after a crash). */
function finish(steps: JournalStep[], beforeRename?: (index: number) => void): void {
  for (const [index, step] of steps.entries()) {
    beforeRename?.(index);
    if (step.temp === null) {
      try {
        unlinkSync(step.target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    } else if (existsSync(step.temp)) {
      renameSync(step.temp, step.target);
    }
  }
}
