import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UserError } from '../errors/errors';
import { isDirectory } from './isDirectory';

export interface FolderListing {
  path: string;
  parent: string | null;
  entries: { name: string; dir: boolean }[];
}

/** The folder picker's view of a folder: visible entries, folders first, at most `limit`. */
export function listFolder(path: string, limit = 2000): FolderListing {
  const folder = resolve(path);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch (error) {
    throw new UserError(`Cannot list ${folder}: ${(error as Error).message}`);
  }
  const entries = names
    .filter((name) => !name.startsWith('.'))
    .map((name) => ({ name, dir: isDirectory(join(folder, name)) }))
    .sort((a, b) => Number(b.dir) - Number(a.dir) || a.name.localeCompare(b.name))
    .slice(0, limit);
  const parent = dirname(folder);
  return { path: folder, parent: parent === folder ? null : parent, entries };
}
