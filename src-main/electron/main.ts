import { app } from 'electron';
import { startDesktop } from './desktopApp';

// One instance: a second launch hands its arguments (maybe an acp-desktop:// link) to the
// first through `second-instance`, which focuses its window, and exits.
if (app.requestSingleInstanceLock()) startDesktop(app);
else app.quit();
