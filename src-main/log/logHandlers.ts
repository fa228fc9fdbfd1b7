import type { Handlers } from '../../src-shared/ipc/contract';
import { UserError } from '../errors/errors';
import { mainLogFile, readMainLog } from './mainLog';

/** The log rows of the handler table. `openPath` is the host's way to open a file (Electron's `shell.openPath`); the browser host has none. */
export function logHandlers(openPath?: (path: string) => Promise<string>): Pick<Handlers, 'log.read' | 'log.open'> {
  return {
    'log.read': async () => ({ ...readMainLog(), canOpen: Boolean(openPath) }),
    'log.open': async () => {
      const path = mainLogFile();
      if (!path) throw new UserError('This process has no log file.');
      if (!openPath) throw new UserError(`This host cannot open files; the log is at ${path}.`);
      // shell.openPath answers an error message, or '' when it opened the file.
      const failure = await openPath(path);
      if (failure) throw new UserError(`Cannot open ${path}: ${failure}`);
      return { ok: true };
    },
  };
}
