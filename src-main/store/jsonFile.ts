import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Writes a file atomically: a temporary file beside it, then a rename. */
export function writeFileAtomic(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  } catch (error) {
    // A full disk leaves a partial temporary file: remove it, the previous file stays as it was.
    rmSync(tmp, { force: true });
    throw error;
  }
}

/** Reads JSON, or returns `fallback` when the file is missing or unreadable (with the reason). */
export function readJson<T>(file: string, fallback: T): { value: T; error: string | null } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { value: fallback, error: null };
  }
  try {
    return { value: JSON.parse(text) as T, error: null };
  } catch (e) {
    return { value: fallback, error: `${file} is not valid JSON: ${(e as Error).message}` };
  }
}
