import { readFileSync } from 'node:fs';
import { UserError } from '../errors/errors';
import { isInsideRoots } from './fileAccess';

const MAX_CHARS = 2 * 1024 * 1024;

/** A file the person opens from a session (a diff, a mention): only inside the session's folders, clipped at 2 M characters. */
export function readWorkspaceFile(path: string, roots: string[]): { path: string; text: string; truncated: boolean } {
  if (!isInsideRoots(path, roots)) throw new UserError(`${path} is outside this session's workspace folders.`);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UserError(`Cannot read ${path}: ${(error as Error).message}`);
  }
  return { path, text: text.length > MAX_CHARS ? text.slice(0, MAX_CHARS) : text, truncated: text.length > MAX_CHARS };
}
