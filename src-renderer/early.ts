// A separate entry that index.html runs before index.js (electron.vite.config.ts, earlyEntry):
// see bridge/earlySocket.ts.
import { openEarlySocket } from './bridge/earlySocket';

openEarlySocket();
