import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { readJson, writeFileAtomic } from '../store/jsonFile';

/**
 * An operation on a worktree that is not finished: written (atomically) before its first git
 * step and removed after its last. A host killed in between leaves the entry behind, and the
 * next start (or the next creation) finishes or undoes it: a half-made worktree and its branch
 * are removed, a half-done removal is completed. Every step it replays is idempotent.
 */
export interface JournalEntry {
  id: string;
  op: 'create' | 'remove';
  repoRoot: string;
  path: string;
  branch: string;
  /** For `create`: the commit the branch was made at; the branch is deleted on undo only if it is still there. */
  baseCommit?: string;
  at: number;
}

export class Journal {
  constructor(private readonly dir: string) {}

  begin(entry: Omit<JournalEntry, 'id' | 'at'>): JournalEntry {
    const full: JournalEntry = { ...entry, id: randomUUID(), at: Date.now() };
    mkdirSync(this.dir, { recursive: true });
    writeFileAtomic(this.file(full.id), JSON.stringify(full));
    return full;
  }

  end(entry: JournalEntry): void {
    rmSync(this.file(entry.id), { force: true });
  }

  /** Unfinished operations, oldest first (unreadable entries and stray temporary files are dropped). */
  pending(): JournalEntry[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      // No journal folder yet: nothing was ever started.
      return [];
    }
    const entries: JournalEntry[] = [];
    for (const name of names) {
      const file = join(this.dir, name);
      if (!name.endsWith('.json')) {
        // A temporary file of writeFileAtomic cut short by a kill: the entry it was writing never existed.
        rmSync(file, { force: true });
        continue;
      }
      const { value } = readJson<Partial<JournalEntry> | null>(file, null);
      if (value && (value.op === 'create' || value.op === 'remove') && value.repoRoot && value.path && value.branch && value.id)
        entries.push(value as JournalEntry);
      else rmSync(file, { force: true });
    }
    return entries.sort((a, b) => a.at - b.at);
  }

  private file(id: string): string {
    return join(this.dir, `${id}.json`);
  }
}
