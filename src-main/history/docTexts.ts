import { deflateRawSync, inflateRawSync } from 'node:zlib';

/** Documents per compressed block: a query's ≤ 50 snippets inflate ≤ 50 blocks of a few KB. */
const BLOCK = 64;
/**
 * A small window and little memory for zlib's state: each call allocates it (256 KB+ with the
 * defaults, released only when collected), and a block is a few KB of text anyway.
 */
const ZLIB = { windowBits: 12, memLevel: 5 };
/** Separates a block's texts (not in any text: chunks are cut from transcript text, which the store checks). */
const SEP = '\u0000';

/**
 * Each search document's text by MiniSearch short id, for snippets: the largest part of a loaded
 * index once its postings are compact (7.9 MB of strings for a 50,000-entry session). Texts are
 * kept in blocks of 64 consecutive short ids, deflated once a block is complete; a query cuts at
 * most one snippet a hit, so it inflates at most `limit` small blocks. Short ids only grow, so
 * the block being filled is the newest one; a discarded document's text is simply never asked for.
 */
export class DocTexts {
  private blocks: (Uint8Array | undefined)[] = [];
  /** The newest blocks' texts, not compressed yet (by short id). */
  private open = new Map<number, (string | undefined)[]>();
  /** One inflated block kept: the hits of a query often share blocks. */
  private cached: { block: number; texts: (string | undefined)[] } | null = null;

  set(shortId: number, text: string): void {
    const block = Math.floor(shortId / BLOCK);
    let texts = this.open.get(block);
    if (!texts) {
      texts = this.blocks[block] ? this.inflate(block) : [];
      this.blocks[block] = undefined;
      this.open.set(block, texts);
    }
    texts[shortId % BLOCK] = text.includes(SEP) ? text.replaceAll(SEP, ' ') : text;
    if (shortId % BLOCK === BLOCK - 1) this.close(block);
  }

  get(shortId: number): string | undefined {
    const block = Math.floor(shortId / BLOCK);
    const open = this.open.get(block);
    if (open) return open[shortId % BLOCK];
    if (!this.blocks[block]) return undefined;
    if (this.cached?.block !== block) this.cached = { block, texts: this.inflate(block) };
    return this.cached.texts[shortId % BLOCK];
  }

  /** The text is no longer needed (its document was discarded). */
  delete(shortId: number): void {
    const open = this.open.get(Math.floor(shortId / BLOCK));
    if (open) open[shortId % BLOCK] = undefined;
  }

  /** Compresses every block still open (after a load or a batch of additions). */
  seal(): void {
    for (const block of [...this.open.keys()]) this.close(block);
  }

  private close(block: number): void {
    const texts = this.open.get(block);
    if (!texts) return;
    this.open.delete(block);
    // A missing text (discarded, or never set) is stored as the empty string between separators.
    const joined = Array.from({ length: BLOCK }, (_, i) => texts[i] ?? '').join(SEP);
    // A copy of exactly its size: zlib's result is a view of a 16 KB output chunk, which it would keep.
    this.blocks[block] = new Uint8Array(deflateRawSync(Buffer.from(joined, 'utf8'), ZLIB));
    if (this.cached?.block === block) this.cached = null;
  }

  private inflate(block: number): (string | undefined)[] {
    const data = this.blocks[block];
    if (!data) return [];
    return inflateRawSync(data, ZLIB)
      .toString('utf8')
      .split(SEP)
      .map((text) => text || undefined);
  }

  /** Bytes held compressed (the guard and the bench count them). */
  get compressedBytes(): number {
    let bytes = 0;
    for (const block of this.blocks) bytes += block?.length ?? 0;
    return bytes;
  }
}
