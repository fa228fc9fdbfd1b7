import MiniSearch, { type Options } from 'minisearch';
import { performance } from 'node:perf_hooks';
import { CompactPostings } from './compactPostings';
import { compactDocs, DocEntries, EntryTable } from './compactDocs';
import { DocTexts } from './docTexts';
import { FilePostings, type PostingsFile } from './filePostings';
import { OneField } from './oneField';

/**
 * A session's saved search index as many short JSON lines instead of MiniSearch's one JSON
 * value. MiniSearch's `loadJSONAsync` parses the whole file at once (60 ms for a 50,000-entry
 * session) and then waits a `setTimeout(0)` every 1,000 keys: about a thousand timers a session,
 * each as long as whatever else the host is doing, so three long sessions took 17 s to load on a
 * busy machine (1 s when quiet, against 0.18 s of actual work). Here every line is a slice that
 * parses in a millisecond or two, postings are flat number arrays (no object with a string key
 * per document), and loading and saving pause for the event loop by elapsed time, not by count.
 *
 * It fills MiniSearch's own fields (as its `loadJS` does), with each term's postings as
 * `CompactPostings` (8 bytes a posting instead of a `Map`'s ~52); the version is pinned in
 * package.json, and the tests compare a loaded index's hits with the saved one's. A document's
 * text (for snippets) is kept compressed by short id (`DocTexts`), not as MiniSearch's stored
 * fields (an object and a map entry per document).
 */

/** How long loading or saving may hold the event loop before it lets other work run. */
const SLICE_MS = 8;
/** Items per line: small enough that parsing one line never holds the thread long. */
const DOCS_PER_LINE = 1000;
const POSTINGS_PER_LINE = 20_000;

type Postings = Map<number, Map<number, number> | CompactPostings | FilePostings> | OneField<Map<number, number> | CompactPostings | FilePostings>;

/** MiniSearch's fields this file reads and writes (protected: read by element access, which TypeScript allows). */
interface Internals {
  documentCount: number;
  nextId: number;
  avgFieldLength: number[];
  dirtCount: number;
  documentIds: Map<number, unknown>;
  idToShortId: Map<unknown, number>;
  fieldLength: Map<number, number[]>;
  index: { set(term: string, data: Postings): unknown; get(term: string): Postings | undefined } & Iterable<[string, Postings]>;
}

function internals<T>(mini: MiniSearch<T>): Internals {
  return {
    documentCount: mini['_documentCount'],
    nextId: mini['_nextId'],
    avgFieldLength: mini['_avgFieldLength'],
    dirtCount: mini['_dirtCount'],
    documentIds: mini['_documentIds'],
    idToShortId: mini['_idToShortId'],
    fieldLength: mini['_fieldLength'],
    index: mini['_index'],
  };
}

/** Lets the event loop run once the current slice of work has taken `SLICE_MS`. */
export class Slicer {
  private since = performance.now();
  /** How many times the work paused (tests: a long load does pause). */
  pauses = 0;

  constructor(private readonly sliceMs = SLICE_MS) {}

  async pause(): Promise<void> {
    if (performance.now() - this.since < this.sliceMs) return;
    this.pauses++;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.since = performance.now();
  }
}

/** A line: its section and a slice of items. */
type Line =
  | ['entries', [entryId: string, sig: string, chunks: number, kind: string, first: number][]]
  | ['meta', { documentCount: number; nextId: number; averageFieldLength: number[]; dirtCount: number }]
  | ['docs', [shortId: number, id: unknown, fieldLength: number[], text: string | null][]]
  | ['terms', [term: string, fieldId: number, postings: number[]][]];

/** What each indexed transcript entry became: the signature of its text, its number of chunk documents and its kind. */
export type EntrySigs = EntryTable;

/**
 * A session's lines (without the file's head): its entries, then its index. A generator: the
 * caller may pause between lines, as long as nothing changes the index until it is done.
 */
export function* sessionLines<T>(entries: EntrySigs, mini: MiniSearch<T>, texts: DocTexts): Generator<string> {
  let slice: Extract<Line, ['entries', unknown]>[1] = [];
  for (const [entryId, { sig, chunks, kind, first }] of entries.entries()) {
    slice.push([entryId, sig, chunks, kind, first]);
    if (slice.length >= DOCS_PER_LINE) {
      yield JSON.stringify(['entries', slice]);
      slice = [];
    }
  }
  if (slice.length) yield JSON.stringify(['entries', slice]);
  const m = internals(mini);
  const meta: Line = ['meta', { documentCount: m.documentCount, nextId: m.nextId, averageFieldLength: m.avgFieldLength, dirtCount: m.dirtCount }];
  yield JSON.stringify(meta);
  let docs: Extract<Line, ['docs', unknown]>[1] = [];
  for (const [shortId, id] of m.documentIds) {
    docs.push([shortId, id, m.fieldLength.get(shortId) ?? [], texts.get(shortId) ?? null]);
    if (docs.length >= DOCS_PER_LINE) {
      yield JSON.stringify(['docs', docs]);
      docs = [];
    }
  }
  if (docs.length) yield JSON.stringify(['docs', docs]);
  let terms: Extract<Line, ['terms', unknown]>[1] = [];
  let postings = 0;
  for (const [term, fields] of m.index) {
    for (const [fieldId, freqs] of fields) {
      const flat: number[] = [];
      freqs.forEach((freq, shortId) => flat.push(shortId, freq));
      terms.push([term, fieldId, flat]);
      postings += freqs.size + 1;
    }
    if (postings >= POSTINGS_PER_LINE) {
      yield JSON.stringify(['terms', terms]);
      terms = [];
      postings = 0;
    }
  }
  if (terms.length) yield JSON.stringify(['terms', terms]);
}

/**
 * The entries and MiniSearch of `sessionLines`' lines, pausing for the event loop between slices
 * of work. Throws on a line it cannot read (the caller re-indexes the session from its log).
 */
export async function loadSessionLines<T>(
  lines: Iterable<string> | AsyncIterable<string>,
  options: Options<T>,
  slicer = new Slicer(),
  /** Where the postings go (`filePostings.ts`); without it they are kept in memory. */
  postingsFile?: PostingsFile,
): Promise<{ entries: EntrySigs; mini: MiniSearch<T>; texts: DocTexts; docEntries: DocEntries }> {
  const mini = compactDocs(new MiniSearch<T>(options));
  const m = internals(mini);
  const entries = new EntryTable();
  const texts = new DocTexts();
  let sawMeta = false;
  for await (const text of lines) {
    if (!text) continue;
    await slicer.pause();
    const line = JSON.parse(text) as Line;
    if (line[0] === 'entries') {
      for (const [entryId, sig, chunks, kind, first] of line[1]) entries.set(entryId, { sig, chunks, kind, first });
    } else if (line[0] === 'meta') {
      mini['_documentCount'] = line[1].documentCount;
      mini['_nextId'] = line[1].nextId;
      mini['_avgFieldLength'] = line[1].averageFieldLength;
      mini['_dirtCount'] = line[1].dirtCount;
      sawMeta = true;
    } else if (line[0] === 'docs') {
      for (const [shortId, id, fieldLength, text] of line[1]) {
        // A document's id is its short id (`compactDocs`): anything else is not this format.
        if (id !== shortId || !Number.isInteger(shortId) || shortId < 0) throw new Error(`document ${String(id)} at ${shortId}`);
        m.documentIds.set(shortId, id);
        m.idToShortId.set(id, shortId);
        m.fieldLength.set(shortId, fieldLength);
        if (typeof text === 'string') texts.set(shortId, text);
      }
    } else if (line[0] === 'terms') {
      for (const [term, fieldId, flat] of line[1]) {
        const freqs = postingsFile ? FilePostings.fromPairs(postingsFile, flat) : CompactPostings.fromFlat(flat);
        let fields = m.index.get(term);
        if (!fields) {
          // With its postings in a file, a term keeps one object for its fields (`OneField`), not a Map.
          fields = postingsFile ? new OneField() : new Map();
          m.index.set(term, fields);
        }
        fields.set(fieldId, freqs);
      }
    } else {
      throw new Error(`unknown line "${String((line as unknown[])[0])}"`);
    }
  }
  if (!sawMeta) throw new Error('no index after the header');
  texts.seal();
  // Each document's entry, from the entries' chunk ranges (the file keeps no entry id per document).
  const docEntries = new DocEntries(entries);
  for (const [entryId, { first, chunks }] of entries.entries()) {
    for (let id = first; id < first + chunks; id++) if (m.documentIds.has(id)) docEntries.set(id, entryId);
  }
  return { entries, mini, texts, docEntries };
}
