// A separate entry that index.html runs before index.js (electron.vite.config.ts, earlyEntry):
// see bridge/earlySocket.ts. The socket bridge imports what it shares with this script from here,
// so that the build puts all of it in this entry's one file (which index.js imports) rather than in
// a third chunk the early script would have to wait for.
import { openEarlySocket } from './bridge/earlySocket';
import { runEntryAfterFirstPaint } from './entryAfterFirstPaint';
import { keepShellClicks } from './shellClicks';

openEarlySocket();
runEntryAfterFirstPaint();
keepShellClicks();

export { takeEarlySocket, takeToken } from './bridge/earlySocket';
export { takeShellClick } from './shellClicks';
export { FrameJoiner } from '../src-shared/ipc/frameParts';
