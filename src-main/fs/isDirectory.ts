import { statSync } from 'node:fs';

/** Whether `path` is a folder; false when it is missing or unreadable. */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
