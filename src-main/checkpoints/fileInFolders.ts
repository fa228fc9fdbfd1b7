import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { UserError } from '../errors/errors';

/** A file of a session folder, refused when it is not inside one (nothing is written outside them). */
export function fileInFolders(roots: readonly string[], root: string, path: string): string {
  if (!roots.includes(root)) throw new UserError(`${root} is not a folder of this session.`);
  if (isAbsolute(path) || path.split(/[\\/]/).includes('..')) throw new UserError(`${path} is not a path inside ${root}.`);
  const full = resolve(root, path);
  const rel = relative(resolve(root), full);
  if (!rel || rel.startsWith(`..${sep}`) || isAbsolute(rel)) throw new UserError(`${path} is not a path inside ${root}.`);
  // A folder on the way that is a link out of the workspace would carry the write outside it.
  let parent = dirname(full);
  while (!existsSync(parent) && parent !== dirname(parent)) parent = dirname(parent);
  const realRoot = realpathSync(root);
  const realParent = realpathSync(parent);
  if (realParent !== realRoot && !realParent.startsWith(realRoot + sep)) throw new UserError(`${path} leads outside ${root} (a linked folder): not written.`);
  return full;
}
