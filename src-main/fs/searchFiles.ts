import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isDirectory } from './isDirectory';

const SKIPPED = new Set(['node_modules', '.git', '.hg', '.svn']);

/** The composer's @ picker: paths under `root` matching `query` (subsequence, best first), skipping dependency and VCS folders. */
export function searchFiles(root: string, query: string, limit = 50): string[] {
  const needle = query.toLowerCase();
  const found: { path: string; score: number }[] = [];
  const queue = [root];
  let visited = 0;
  while (queue.length && visited < 20_000) {
    const folder = queue.shift()!;
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      continue; // an unreadable folder has nothing to offer; the rest still is
    }
    for (const name of names) {
      if (SKIPPED.has(name)) continue;
      visited++;
      const full = join(folder, name);
      if (isDirectory(full)) {
        queue.push(full);
        continue;
      }
      const rel = relative(root, full).toLowerCase();
      const score = matchScore(rel, name.toLowerCase(), needle);
      if (score >= 0) found.push({ path: full, score });
    }
  }
  return found
    .sort((a, b) => b.score - a.score || a.path.length - b.path.length)
    .slice(0, limit)
    .map((f) => f.path);
}

function matchScore(rel: string, name: string, needle: string): number {
  if (!needle) return 0;
  if (name.startsWith(needle)) return 3;
  if (name.includes(needle)) return 2;
  if (rel.includes(needle)) return 1;
  let i = 0;
  for (const ch of rel) if (ch === needle[i]) i++;
  return i === needle.length ? 0 : -1;
}
