import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { logWarn } from '../log/mainLog';

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

/**
 * Writes lines atomically, one at a time (a temporary file, then a rename): a large file is never
 * one string in memory. Each line gets a newline.
 */
export function writeLinesAtomic(file: string, lines: Iterable<string>): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  let fd: number | null = null;
  try {
    fd = openSync(tmp, 'w');
    for (const line of lines) writeSync(fd, `${line}\n`);
    closeSync(fd);
    fd = null;
    renameSync(tmp, file);
  } catch (error) {
    if (fd !== null) closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  }
}

/** Reads JSON, or returns `fallback` when the file is missing or unreadable (with the reason). */
export function readJson<T>(file: string, fallback: T): { value: T; error: string | null } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    // Not written yet is normal; an unreadable file also falls back, with a log line.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') logWarn(`Reading ${file}`, error);
    return { value: fallback, error: null };
  }
  try {
    return { value: JSON.parse(text) as T, error: null };
  } catch (e) {
    return { value: fallback, error: `${file} is not valid JSON: ${(e as Error).message}` };
  }
}
