import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterEach, expect, it } from 'vitest';
import { disposer, makeCore } from '../testing/coreHarness';
import { chunkText, MAX_INDEXED_CHARS } from './searchIndex';

const harnesses = disposer();
afterEach(() => harnesses.disposeAll());

/** About `mb` megabytes of words with no newline, the way a pasted log on one line arrives. */
function bigText(mb: number, tail: string): string {
  const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa ';
  return `${words.repeat(Math.ceil((mb * 1024 * 1024) / words.length))}${tail}`;
}

// Issue 26's note: a 20 MB text prompt stalled the core for minutes. Cutting it into chunks
// searched back from each chunk's end to the start of the text for a newline (quadratic), and
// every one of its 10,000 chunks was indexed.
it('a 20 MB text prompt: the turn runs, search finds its head, the index holds a bounded part, and the host stays responsive', async () => {
  const h = harnesses.track(makeCore());
  const sessionId = await h.newSession();
  // `echometa` answers with one short line, so what is measured is the prompt, not an echo of it.
  const prompt = `echometa okapi-head ${bigText(20, 'zebra-tail')}`;
  const delay = monitorEventLoopDelay({ resolution: 20 });
  delay.enable();
  await h.prompt(sessionId, prompt, 120_000);
  h.core.history.catchUp();
  await h.core.history.search.idle();
  delay.disable();

  expect(h.agentText(sessionId)).toContain('Prompt meta');
  const hits = await h.core.history.query('okapi');
  expect(hits.map((hit) => hit.sessionId)).toEqual([sessionId]);
  // The head is indexed (200,000 characters: 100 documents), not the 20 MB (10,486 documents).
  expect(h.core.history.search.indexedDocuments).toBeLessThanOrEqual(Math.ceil(MAX_INDEXED_CHARS / 1000) + 10);
  expect(await h.core.history.query('zebra')).toEqual([]);
  // A generous bound: before, one stall lasted minutes; now the worst is the prompt's own JSON.
  expect(delay.max / 1e6).toBeLessThan(5_000);
}, 180_000);

it('cuts a long text with no newline into the same chunks, at spaces', () => {
  const text = bigText(0.1, 'end');
  const chunks = chunkText(text);
  expect(chunks.join('')).toBe(text);
  for (const chunk of chunks.slice(0, -1)) {
    expect(chunk.length).toBeLessThanOrEqual(2001); // 2,000 and the space it was cut at
    expect(chunk.endsWith(' ')).toBe(true);
  }
});
