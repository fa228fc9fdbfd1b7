/**
 * Terminal output kept within `outputByteLimit` bytes by dropping from the start, cut at a
 * UTF-8 character boundary (ACP `terminal/create`).
 */
export class OutputBuffer {
  private chunks: Buffer[] = [];
  private bytes = 0;
  truncated = false;

  constructor(private readonly limit: number | null) {}

  push(data: string | Buffer): void {
    const buffer = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    this.chunks.push(buffer);
    this.bytes += buffer.length;
    if (this.limit !== null && this.bytes > this.limit) this.trim(this.limit);
  }

  private trim(limit: number): void {
    let all = Buffer.concat(this.chunks);
    let start = all.length - limit;
    // Continuation bytes are 10xxxxxx: move forward to the next character's first byte.
    while (start < all.length && (all[start] & 0xc0) === 0x80) start++;
    all = all.subarray(start);
    this.chunks = [all];
    this.bytes = all.length;
    this.truncated = true;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
