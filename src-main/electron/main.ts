import { app } from 'electron';
import { resolve } from 'node:path';
import { startDesktop } from './desktopApp';

// Same variable as the browser host's: an isolated data folder (end-to-end tests, a second
// profile). Set before the lock, which is held per data folder.
if (process.env.ACP_DESKTOP_DATA_DIR) app.setPath('userData', resolve(process.env.ACP_DESKTOP_DATA_DIR));

// One instance: a second launch hands its arguments (maybe an acp-desktop:// link) to the
// first through `second-instance`, which focuses its window, and exits.
if (app.requestSingleInstanceLock()) startDesktop(app);
else app.quit();
