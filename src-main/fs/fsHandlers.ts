import type { Handlers } from '../../src-shared/ipc/contract';
import { listFolder } from './listFolder';
import { readWorkspaceFile } from './readWorkspaceFile';
import { searchFiles } from './searchFiles';

export interface FsHandlerDeps {
  /** The folder listed when the picker names none. */
  defaultFolder: () => string;
  /** An open session's folders (throws for an unknown session). */
  sessionFolders: (sessionId: string) => { cwd: string; roots: string[] };
}

/** The file rows of the handler table: the folder picker, the file viewer and the @ picker. */
export function fsHandlers(deps: FsHandlerDeps): Pick<Handlers, 'fs.list' | 'fs.readFile' | 'fs.search'> {
  return {
    'fs.list': async ({ path }) => listFolder(path ?? deps.defaultFolder()),
    'fs.readFile': async ({ sessionId, path }) => readWorkspaceFile(path, deps.sessionFolders(sessionId).roots),
    'fs.search': async ({ sessionId, query }) => {
      const root = deps.sessionFolders(sessionId).cwd;
      return { root, paths: searchFiles(root, query) };
    },
  };
}
