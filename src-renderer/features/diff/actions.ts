import { bridge } from '../../bridge';

/** A workspace file's text, read through main (inside the session's folders only). */
export const readWorkspaceFile = (sessionId: string, path: string) => bridge.request('fs.readFile', { sessionId, path });
