/**
 * Splits a git patch (ACP v2 diff `patch` with format `git_patch`) into its files, and
 * rebuilds for each the text its hunks show on either side, so one Monaco diff can be drawn
 * per change. Only what the hunks carry is known: lines between hunks are marked, not guessed.
 */

export interface FilePatch {
  /** Paths as written in the patch, without git's `a/` / `b/` prefixes; null for /dev/null. */
  oldPath: string | null;
  newPath: string | null;
  /** The file's section of the patch, as written (header and hunks). */
  text: string;
  /** The hunks' old and new sides; `null` old side for a new file, `null` new side for a deleted one. */
  oldText: string | null;
  newText: string | null;
  added: number;
  removed: number;
  /** Header-only sections (renames, mode changes, binary files) have no hunks. */
  hunks: number;
  binary: boolean;
}

/** Between two hunks: lines the patch does not show. */
export const GAP_MARK = '⋯';

export function parseGitPatch(patch: string): FilePatch[] {
  const lines = patch.split('\n');
  const sections: string[][] = [];
  for (const line of lines) {
    if (line.startsWith('diff --git ') || (line.startsWith('--- ') && !sections.length)) sections.push([line]);
    else if (sections.length) sections[sections.length - 1].push(line);
  }
  return sections.map(parseSection);
}

function stripPrefix(path: string): string | null {
  const clean = path.trim().replace(/\t.*$/, '');
  if (clean === '/dev/null') return null;
  return clean.replace(/^"(.*)"$/, '$1').replace(/^[ab]\//, '');
}

function parseSection(lines: string[]): FilePatch {
  let oldPath: string | null | undefined;
  let newPath: string | null | undefined;
  const header = lines[0].startsWith('diff --git ') ? /^diff --git (\S+) (\S+)$/.exec(lines[0]) : null;
  if (header) {
    oldPath = stripPrefix(header[1]);
    newPath = stripPrefix(header[2]);
  }
  let isNew = false;
  let isDeleted = false;
  let binary = false;
  const oldSide: string[] = [];
  const newSide: string[] = [];
  let added = 0;
  let removed = 0;
  let hunks = 0;
  let inHunk = false;
  // Every line of a patch ends with a newline unless `\ No newline at end of file` follows it.
  let last: '+' | '-' | ' ' | null = null;
  let oldEndsWithNewline = true;
  let newEndsWithNewline = true;
  for (const line of lines) {
    if (!inHunk || line.startsWith('@@') || line.startsWith('diff --git ')) {
      if (line.startsWith('new file mode')) isNew = true;
      else if (line.startsWith('deleted file mode')) isDeleted = true;
      else if (line.startsWith('rename from ')) oldPath = line.slice('rename from '.length);
      else if (line.startsWith('rename to ')) newPath = line.slice('rename to '.length);
      else if (line.startsWith('copy from ')) oldPath = line.slice('copy from '.length);
      else if (line.startsWith('copy to ')) newPath = line.slice('copy to '.length);
      else if (line.startsWith('Binary files') || line === 'GIT binary patch') binary = true;
      else if (line.startsWith('--- ')) oldPath = stripPrefix(line.slice(4));
      else if (line.startsWith('+++ ')) newPath = stripPrefix(line.slice(4));
      if (line.startsWith('@@')) {
        if (hunks > 0) {
          oldSide.push(GAP_MARK);
          newSide.push(GAP_MARK);
        }
        hunks++;
        inHunk = true;
      }
      continue;
    }
    if (line.startsWith('+')) {
      newSide.push(line.slice(1));
      added++;
      last = '+';
    } else if (line.startsWith('-')) {
      oldSide.push(line.slice(1));
      removed++;
      last = '-';
    } else if (line.startsWith(' ') || line === '') {
      oldSide.push(line.slice(1));
      newSide.push(line.slice(1));
      last = ' ';
    } else if (line.startsWith('\\')) {
      // `\ No newline at end of file`: about the line before it, not content.
      if (last === '-' || last === ' ') oldEndsWithNewline = false;
      if (last === '+' || last === ' ') newEndsWithNewline = false;
    }
  }
  // A trailing empty line is the patch's own last newline, not a context line.
  while (oldSide.length && oldSide[oldSide.length - 1] === '' && newSide[newSide.length - 1] === '') {
    oldSide.pop();
    newSide.pop();
  }
  if (isNew) oldPath = null;
  if (isDeleted) newPath = null;
  return {
    oldPath: oldPath ?? null,
    newPath: newPath ?? null,
    text: lines.join('\n').replace(/\n+$/, ''),
    oldText: isNew || oldPath === null ? null : sideText(oldSide, oldEndsWithNewline),
    newText: isDeleted || newPath === null ? null : sideText(newSide, newEndsWithNewline),
    added,
    removed,
    hunks,
    binary,
  };
}

/** One side's lines as text, with the final newline the file has (a side ending in a gap shows none). */
function sideText(side: string[], endsWithNewline: boolean): string {
  if (!side.length) return '';
  return side.join('\n') + (endsWithNewline && side[side.length - 1] !== GAP_MARK ? '\n' : '');
}

/** The patch section for a change's path: patches name paths relative (`a/src/x`) or absolute. */
export function findFilePatch(files: readonly FilePatch[], path: string, oldPath?: string | null): FilePatch | undefined {
  const same = (candidate: string | null, target: string | null | undefined) => {
    if (!candidate || !target) return false;
    const a = candidate.replace(/^\/+/, '');
    const b = target.replace(/^\/+/, '');
    return a === b || b.endsWith(`/${a}`) || a.endsWith(`/${b}`);
  };
  return files.find(
    (file) =>
      same(file.newPath, path) || (file.newPath === null && same(file.oldPath, path)) || (oldPath && same(file.oldPath, oldPath) && same(file.newPath, path)),
  );
}
