import { describe, expect, it } from 'vitest';
import { StreamingSplit } from './markdownBlocks';

/** Lines of exactly 40 characters (39 and a single `\n`), numbered so their order can be read back. */
function lines(count: number, line: (i: number) => string): string {
  return Array.from({ length: count }, (_, i) => `${line(i)}`.slice(0, 39).padEnd(39, '.') + '\n').join('');
}

/** One block of every kind that cannot be cut (no blank line inside), 40 KB to 2 MB. */
const BLOCKS: Record<string, (count: number) => string> = {
  paragraph: (n) => lines(n, (i) => `line ${String(i).padStart(7, '0')} of a log dump with words`),
  list: (n) => lines(n, (i) => `- item ${String(i).padStart(7, '0')} of a long list`),
  table: (n) => '| name | value |\n|---|---|\n' + lines(n, (i) => `| row ${String(i).padStart(7, '0')} | cell |`),
  fence: (n) => '```text\n' + lines(n, (i) => `log ${String(i).padStart(7, '0')}: x = ${i}`) + '```\n',
};

/** The unit form: streamed with `update(prefix, false)`, then `update(full, true)` called 50 times. */
function finish(text: string): ReturnType<StreamingSplit['update']> {
  const splitter = new StreamingSplit();
  for (let at = 0; at < text.length; at += 64 * 1024) splitter.update(text.slice(0, at), false);
  splitter.update(text.slice(0, text.length - 20), false);
  let split = splitter.update(text, true);
  let calls = 1;
  for (; calls < 50 && split.behind; calls++) split = splitter.update(text, true);
  console.log(`${text.length} characters: ${calls} updates`);
  return split;
}

describe('a block larger than one frame budget still gets cut and committed (issue 21)', () => {
  for (const [kind, make] of Object.entries(BLOCKS))
    for (const count of [1_000, 3_000, 50_000]) {
      const text = make(count);
      it(`a ${kind} of ${Math.round(text.length / 1024)} KB, finished: everything committed within 50 updates`, { timeout: 120_000 }, () => {
        const split = finish(text);
        expect(split.behind).toBe(false);
        expect(split.tail).toBe('');
        expect(split.pending).toBe('');
        expect(split.groups.join('')).toBe(text);
      });
    }
});
