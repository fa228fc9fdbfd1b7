import { app } from 'electron';
import { startDesktop } from './desktopApp';

startDesktop(app);
