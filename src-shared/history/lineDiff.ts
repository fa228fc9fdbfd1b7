/** One line of a line diff: kept (' '), removed ('-') or added ('+'). */
export interface DiffLine {
  op: ' ' | '-' | '+';
  text: string;
}

/** Above this many line pairs the diff is shown as "all old lines removed, all new added". */
const MAX_CELLS = 4_000_000;

/**
 * A line diff by longest common subsequence (O(n·m), bounded). Good enough for the diffs
 * agents send (one file edit at a time) in an exported transcript.
 */
export function lineDiff(oldText: string | null, newText: string): DiffLine[] {
  const a = oldText === null || oldText === '' ? [] : oldText.replace(/\n$/, '').split('\n');
  const b = newText === '' ? [] : newText.replace(/\n$/, '').split('\n');
  // Trim the common head and tail first: most edits touch a few lines of a long file.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const out: DiffLine[] = a.slice(0, head).map((text) => ({ op: ' ', text }));
  if (midA.length * midB.length > MAX_CELLS) {
    for (const text of midA) out.push({ op: '-', text });
    for (const text of midB) out.push({ op: '+', text });
  } else {
    const n = midA.length;
    const m = midB.length;
    // lcs[i][j] = LCS length of midA[i..] and midB[j..], in one flat array.
    const lcs = new Uint32Array((n + 1) * (m + 1));
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * (m + 1) + j] = midA[i] === midB[j] ? lcs[(i + 1) * (m + 1) + j + 1] + 1 : Math.max(lcs[(i + 1) * (m + 1) + j], lcs[i * (m + 1) + j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && midA[i] === midB[j]) {
        out.push({ op: ' ', text: midA[i++] });
        j++;
      } else if (i < n && (j === m || lcs[(i + 1) * (m + 1) + j] >= lcs[i * (m + 1) + j + 1])) {
        // Removals before additions, as `diff -u` shows them.
        out.push({ op: '-', text: midA[i++] });
      } else {
        out.push({ op: '+', text: midB[j++] });
      }
    }
  }
  for (const text of a.slice(a.length - tail)) out.push({ op: ' ', text });
  return out;
}
