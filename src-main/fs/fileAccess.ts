import { chmodSync, existsSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, basename, join } from 'node:path';

/** Whether `path` lies inside one of `roots` (after resolving `..` and symlinks where they exist). */
export function isInsideRoots(path: string, roots: readonly string[]): boolean {
  if (!isAbsolute(path)) return false;
  const target = realish(path);
  return roots.some((root) => {
    const base = realish(root);
    const rel = relative(base, target);
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  });
}

/** realpath of the longest existing prefix, so a not-yet-created file under a symlinked dir still resolves. */
function realish(path: string): string {
  let current = resolve(path);
  const rest: string[] = [];
  while (!existsSync(current)) {
    const parent = dirname(current);
    if (parent === current) break;
    rest.unshift(basename(current));
    current = parent;
  }
  try {
    return join(realpathSync(current), ...rest);
  } catch {
    return resolve(path);
  }
}

/** `fs/read_text_file`: `line` is 1-based; `limit` caps the number of lines. */
export function readTextFile(path: string, line?: number | null, limit?: number | null): string {
  const text = readFileSync(path, 'utf8');
  if (!line && !limit) return text;
  const lines = text.split('\n');
  const start = Math.max(0, (line ?? 1) - 1);
  const end = limit ? start + limit : lines.length;
  return lines.slice(start, end).join('\n');
}

/**
 * `fs/write_text_file`, atomically: a temporary file beside the target, then a rename, the
 * old mode kept. A failed write leaves the old file intact and no temporary file behind.
 * Returns the previous text. `rename` is replaceable for tests.
 */
export function writeTextFileAtomic(requested: string, content: string, rename: (from: string, to: string) => void = renameSync): { oldText: string | null } {
  // Through a symlink, the file it points to is replaced (the link stays a link).
  const path = existsSync(requested) ? realpathSync(requested) : requested;
  let oldText: string | null = null;
  let mode: number | undefined;
  if (existsSync(path)) {
    oldText = readFileSync(path, 'utf8');
    mode = statSync(path).mode;
  }
  const tmp = join(dirname(path), `.${basename(path)}.acp-${process.pid}-${Date.now()}.tmp`);
  try {
    writeFileSync(tmp, content, { mode: mode ?? 0o644, flag: 'wx' });
    if (mode !== undefined) chmodSync(tmp, mode);
    rename(tmp, path);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
  return { oldText };
}
