import { BrowserWindow, ipcMain, session, shell, type App, type IpcMainInvokeEvent } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { requestNames } from '../../src-shared/ipc/contract';
import { AppCore } from '../core/appCore';
import { dispatch } from '../core/dispatch';
import { CONTENT_SECURITY_POLICY, mainWindowOptions } from './windowOptions';
import { isAppUrl, isExternalHttpUrl } from './navigation';

/** Wires the core to Electron: one window, the contract over IPC, the hardening rules. */
export function startDesktop(app: App): void {
  let core: AppCore | null = null;
  let window: BrowserWindow | null = null;
  const rendererIndex = join(import.meta.dirname, '../renderer/index.html');
  const appUrl = pathToFileURL(rendererIndex).href;

  const createWindow = () => {
    window = new BrowserWindow(mainWindowOptions(join(import.meta.dirname, '../preload/index.cjs')));
    window.once('ready-to-show', () => window?.show());
    window.webContents.setWindowOpenHandler(({ url }) => {
      if (isExternalHttpUrl(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
    window.webContents.on('will-navigate', (event, url) => {
      if (!isAppUrl(url, appUrl)) event.preventDefault();
      if (isExternalHttpUrl(url)) void shell.openExternal(url);
    });
    void window.loadFile(rendererIndex);
  };

  app.whenReady().then(() => {
    session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
      callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
    });
    session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) => callback(permission === 'notifications'));
    core = new AppCore({ dataDir: app.getPath('userData'), host: 'electron' });
    const trusted = (event: IpcMainInvokeEvent) => event.senderFrame !== null && window !== null && event.sender === window.webContents && event.senderFrame === window.webContents.mainFrame;
    for (const name of requestNames) {
      ipcMain.handle(`req:${name}`, async (event, input) => {
        // IPC from another frame (an iframe, a navigated-away page) is ignored.
        if (!trusted(event)) return { ok: false, error: { code: 'bad_request', message: 'Request from an unexpected frame.' } };
        return dispatch(core!.handlers, name, input, JSON.stringify(input ?? null).length);
      });
    }
    core.on((name, payload) => window?.webContents.send(`evt:${name}`, payload));
    createWindow();
  });

  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', (event) => {
    if (!core) return;
    event.preventDefault();
    const closing = core;
    core = null;
    void closing.dispose().finally(() => app.quit());
  });
}
