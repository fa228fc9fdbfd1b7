import { appendFileSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

export interface RotatingFileOptions {
  /** Size at which the file is rotated (bytes). */
  maxBytes: number;
  /** How many rotated files are kept (`main.log.1` … `main.log.N`); older ones are deleted. */
  keep: number;
}

/**
 * An append-only text file capped in size: when a write would pass `maxBytes`, `file` becomes
 * `file.1`, `file.1` becomes `file.2`, and so on up to `keep`. Writes are synchronous so a line
 * written just before a crash is on disk.
 */
export class RotatingFile {
  private size: number;

  constructor(
    readonly file: string,
    private readonly options: RotatingFileOptions,
  ) {
    mkdirSync(dirname(file), { recursive: true });
    this.size = sizeOf(file);
  }

  append(text: string): void {
    const bytes = Buffer.byteLength(text);
    if (this.size > 0 && this.size + bytes > this.options.maxBytes) this.rotate();
    appendFileSync(this.file, text);
    this.size += bytes;
  }

  private rotate(): void {
    rmSync(`${this.file}.${this.options.keep}`, { force: true });
    for (let n = this.options.keep - 1; n >= 1; n--) moveIfPresent(`${this.file}.${n}`, `${this.file}.${n + 1}`);
    if (this.options.keep > 0) moveIfPresent(this.file, `${this.file}.1`);
    else rmSync(this.file, { force: true });
    this.size = 0;
  }
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0; // not written yet
  }
}

function moveIfPresent(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
