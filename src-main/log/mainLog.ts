import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../errors/errors';
import { RotatingFile, type RotatingFileOptions } from './rotatingFile';
import {} from './mainLog';

/**
 * The main process's log: `<data>/logs/main.log`, 1 MB and two rotated files at most. One per
 * process (both hosts run one core), so code deep in the installer or the stores logs without
 * being handed a logger. Before `openMainLog` (unit tests) lines stay in memory only.
 */

/** `debug`: an expected failure that was handled (best-effort cleanup), kept for when something else goes wrong. */
export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

const RECENT_LINES = 200;
const DEFAULTS: RotatingFileOptions = { maxBytes: 1024 * 1024, keep: 2 };

let sink: RotatingFile | null = null;
const recent: string[] = [];

/** Where this process logs from now on; returns the file's path. */
export function openMainLog(dataDir: string, options: RotatingFileOptions = DEFAULTS): string {
  const file = join(dataDir, 'logs', 'main.log');
  if (sink?.file !== file) sink = new RotatingFile(file, options);
  return file;
}

export function mainLogFile(): string | null {
  return sink?.file ?? null;
}

/** Writes one entry: `<ISO time> <LEVEL> <what was being done>: <error, with its stack for bugs>`. */
export function log(level: LogLevel, what: string, error?: unknown): void {
  const text = `${new Date().toISOString()} ${level.toUpperCase()} ${what}${error === undefined ? '' : `: ${describe(error)}`}`;
  recent.push(...text.split('\n'));
  if (recent.length > RECENT_LINES) recent.splice(0, recent.length - RECENT_LINES);
  try {
    sink?.append(`${text}\n`);
  } catch (failure) {
    // The log cannot log its own failure; stderr is the last place left.
    process.stderr.write(`acp-desktop: cannot write ${sink?.file}: ${(failure as Error).message}\n${text}\n`);
  }
}

export function logError(what: string, error?: unknown): void {
  log('error', what, error);
}

export function logWarn(what: string, error?: unknown): void {
  log('warn', what, error);
}

export function logDebug(what: string, error?: unknown): void {
  log('debug', what, error);
}

/** A lookup that failed because the file or folder is not there is an answer; anything else is logged (debug). */
export function logUnlessMissing(what: string, error: unknown): void {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code !== 'ENOENT' && code !== 'ENOTDIR') log('debug', what, error);
}

/** For work left running in the background: `void work().catch(logged('connecting a session'))`. */
export function logged(what: string, level: LogLevel = 'error'): (error: unknown) => void {
  return (error) => log(level, what, error);
}

/** The log's last lines (from the file when there is one, else what this process logged). */
export function readMainLog(maxLines = RECENT_LINES): { path: string | null; lines: string[] } {
  const file = sink?.file ?? null;
  if (!file) return { path: null, lines: recent.slice(-maxLines) };
  return { path: file, lines: tailLines(file, maxLines) };
}

function tailLines(file: string, maxLines: number, maxBytes = 64 * 1024): string[] {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return []; // nothing logged yet: the file is created on the first line
  }
  try {
    const size = statSync(file).size;
    const length = Math.min(size, maxBytes);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    const lines = buffer.toString('utf8').split('\n');
    if (length < size) lines.shift(); // the first line was cut
    if (lines.at(-1) === '') lines.pop();
    return lines.slice(-maxLines);
  } finally {
    closeSync(fd);
  }
}

function describe(error: unknown): string {
  // A UserError was meant for the person: its message is the whole story.
  if (error instanceof UserError) return error.code === undefined ? error.message : `${error.message} (code ${error.code})`;
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
