// A separate entry that index.html runs before index.js (electron.vite.config.ts, earlyEntry):
// see bridge/earlySocket.ts. The socket bridge imports what it shares with this script from here,
// so that the build puts all of it in this entry's one file (which index.js imports) rather than in
// a third chunk the early script would have to wait for.
import { openEarlySocket } from './bridge/earlySocket';
import { runEntryAfterFirstPaint } from './entryAfterFirstPaint';
import { keepShellClicks } from './shellClicks';

// A page served with its first frame drawn (the host marks it) opens its socket after that frame:
// the host loads its core when the socket asks, and that load would share the cores with the frame.
if (typeof document !== 'undefined' && document.querySelector('meta[name="acp-entry"][content="after-first-paint"]')) runEntryAfterFirstPaint(openEarlySocket);
else {
  openEarlySocket();
  runEntryAfterFirstPaint();
}
keepShellClicks();

export { takeEarlySocket, takeToken } from './bridge/earlySocket';
export { takeShellClick } from './shellClicks';
export { FrameJoiner } from '../src-shared/ipc/frameParts';
