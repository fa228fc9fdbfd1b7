import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * A path under the app's data folder, checked to stay inside it: every file name the app builds
 * from an id (a session's log, an agent's folder) goes through here, so an id that slipped past
 * validation (`../`, an absolute path, a separator) fails loudly instead of reaching elsewhere.
 */
export function pathInside(root: string, ...parts: string[]): string {
  const base = resolve(root);
  const full = resolve(base, ...parts);
  const rel = relative(base, full);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel) || parts.some((part) => part.includes('\0'))) {
    throw new Error(`Refusing a path outside the data folder: ${parts.join('/').slice(0, 200)}`);
  }
  return full;
}
