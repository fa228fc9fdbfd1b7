import { BrowserWindow, dialog, ipcMain, Menu, Notification, screen, session, shell, type App, type MessageBoxOptions, type WebContents } from 'electron';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { requestNames, type EventPayload } from '../../src-shared/ipc/contract';
import type { SessionEvent } from '../../src-shared/session/events';
import type { AppCore } from '../core/appCore';
import { createCore } from '../core/createCore';
import { dispatch } from '../core/dispatch';
import { APP_ID, DEEP_LINK_SCHEME } from './appIdentity';
import { startAutoUpdate, type Updates } from './autoUpdate';
import { deepLinkFromArgv, parseDeepLink, type DeepLink } from './deepLink';
import { isTrustedSender } from './ipcSender';
import { buildMenuTemplate } from './menuTemplate';
import { isAppUrl, isExternalHttpUrl } from './navigation';
import { notifiableEvent, notificationContent, shouldNotify } from './notifications';
import { confirmsQuit, quitDecision, type QuitDecision } from './quit';
import { SafeStorageSecrets } from './safeStorageSecrets';
import { CONTENT_SECURITY_POLICY, isPermissionAllowed, mainWindowOptions } from './windowOptions';
import { clampToDisplays, loadWindowState, saveWindowState } from './windowState';

type UiCommand = EventPayload<'ui.command'>;

/**
 * Wires the core to Electron: one window, the contract over IPC, the hardening rules, and the
 * desktop integration (menu, window state, quit confirmation, notifications, updates, deep
 * links). Every decision is a pure function in a sibling module; this file only connects them.
 * `main.ts` has already taken the single-instance lock.
 */
export function startDesktop(app: App): void {
  let core: AppCore | null = null;
  let window: BrowserWindow | null = null;
  /** The page has loaded (so its preload listens); `ui.command`s wait until then. */
  let rendererReady = false;
  const pendingCommands: UiCommand[] = [];
  /** Set once quitting is decided: no further confirmation, windows may close. */
  let quitting = false;
  let askingToQuit = false;
  let updates: Updates | null = null;
  const notifications = new Set<Notification>();

  const isDev = !app.isPackaged;
  const rendererIndex = join(import.meta.dirname, '../renderer/index.html');
  const appUrl = pathToFileURL(rendererIndex).href;
  const preloadPath = join(import.meta.dirname, '../preload/index.cjs');

  // Windows shows notifications only for an app with an AppUserModelID (the NSIS shortcut's).
  if (process.platform === 'win32') app.setAppUserModelId(APP_ID);
  // Only the packaged app claims the scheme: a development run would register the bare Electron binary.
  if (app.isPackaged && !app.isDefaultProtocolClient(DEEP_LINK_SCHEME)) app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);

  // ---------------------------------------------------------------- commands to the renderer

  const sendCommand = (command: UiCommand) => {
    if (core && window && rendererReady) core.emit('ui.command', command);
    else if (pendingCommands.length < 20) pendingCommands.push(command);
  };
  const flushCommands = () => {
    if (!core) return;
    for (const command of pendingCommands.splice(0)) core.emit('ui.command', command);
  };
  const focusWindow = () => {
    if (!window) {
      if (app.isReady() && core && !quitting) createWindow();
      return;
    }
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  };
  const openDeepLink = (link: DeepLink | null) => {
    if (!link) return;
    focusWindow();
    sendCommand({ command: 'installAgent', agentId: link.agentId });
  };

  // A second launch (maybe with a deep link as an argument, on Windows and Linux) lands here.
  app.on('second-instance', (_event, argv) => {
    focusWindow();
    openDeepLink(deepLinkFromArgv(argv));
  });
  // macOS delivers links as an event, possibly before `ready` (the link that launched the app).
  app.on('open-url', (event, url) => {
    event.preventDefault();
    openDeepLink(parseDeepLink(url));
  });
  const launchLink = deepLinkFromArgv(process.argv);

  // ---------------------------------------------------------------- hardening

  const hardenContents = (contents: WebContents) => {
    contents.setWindowOpenHandler(({ url }) => {
      if (isExternalHttpUrl(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
    contents.on('will-navigate', (event, url) => {
      if (isAppUrl(url, appUrl)) return;
      event.preventDefault();
      if (isExternalHttpUrl(url)) void shell.openExternal(url);
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
  };
  app.on('web-contents-created', (_event, contents) => hardenContents(contents));

  // ---------------------------------------------------------------- quitting

  const askToQuit = (decision: Extract<QuitDecision, { kind: 'confirm' }>) => {
    if (askingToQuit) return;
    askingToQuit = true;
    const { message, detail, buttons, defaultId, cancelId } = decision;
    const options: MessageBoxOptions = { type: 'warning', message, detail, buttons, defaultId, cancelId, noLink: true };
    const asked = window ? dialog.showMessageBox(window, options) : dialog.showMessageBox(options);
    void asked
      .then(({ response }) => {
        if (!confirmsQuit(response)) return;
        quitting = true;
        app.quit();
      })
      .finally(() => {
        askingToQuit = false;
      });
  };

  // ---------------------------------------------------------------- the window

  const windowIcon = (): string | undefined => {
    // macOS and Windows take the icon from the app bundle / executable.
    if (process.platform !== 'linux') return undefined;
    const icon = app.isPackaged ? join(process.resourcesPath, 'icon.png') : join(app.getAppPath(), 'resources/icons/512x512.png');
    return existsSync(icon) ? icon : undefined;
  };

  const createWindow = () => {
    const dataDir = app.getPath('userData');
    const saved = loadWindowState(dataDir);
    const primary = screen.getPrimaryDisplay();
    const displays = [primary, ...screen.getAllDisplays().filter((display) => display.id !== primary.id)];
    const created = new BrowserWindow(mainWindowOptions(preloadPath, clampToDisplays(saved?.bounds, displays), { icon: windowIcon() }));
    window = created;
    rendererReady = false;
    created.once('ready-to-show', () => {
      if (saved?.maximized) created.maximize();
      created.show();
    });
    created.on('close', (event) => {
      saveWindowState(dataDir, { bounds: created.getNormalBounds(), maximized: created.isMaximized() });
      // On Windows and Linux closing the window quits the app: ask first if work is running.
      // On macOS the app stays open without windows, so agents keep working.
      if (process.platform === 'darwin' || quitting || !core) return;
      const decision = quitDecision(core.busyReasons());
      if (decision.kind === 'quit') return;
      event.preventDefault();
      askToQuit(decision);
    });
    created.on('closed', () => {
      if (window === created) {
        window = null;
        rendererReady = false;
      }
    });
    created.webContents.on('did-finish-load', () => {
      if (window !== created) return;
      rendererReady = true;
      flushCommands();
    });
    void created.loadFile(rendererIndex);
  };

  // ---------------------------------------------------------------- notifications

  const notify = (sessionId: string, events: SessionEvent[]) => {
    if (!core) return;
    const found = notifiableEvent(events);
    const focused = window !== null && !window.isDestroyed() && window.isFocused();
    if (!found || !shouldNotify({ focused, enabled: core.settings.settings.notifications, kind: found.kind })) return;
    if (!Notification.isSupported()) return;
    const state = core.sessions.sessions.get(sessionId)?.fold();
    const content = notificationContent(found.kind, found.event, { title: state?.title ?? null, agentName: state?.agentName ?? '' });
    const notification = new Notification({ title: content.title, body: content.body });
    // Held so the click handler survives garbage collection; the oldest go first.
    notifications.add(notification);
    if (notifications.size > 20) notifications.delete(notifications.values().next().value!);
    notification.on('click', () => {
      notifications.delete(notification);
      focusWindow();
      sendCommand({ command: 'focusSession', sessionId });
    });
    notification.on('close', () => notifications.delete(notification));
    notification.show();
  };

  // ---------------------------------------------------------------- start

  app.whenReady().then(() => {
    // The page's own <meta> CSP covers file:// (which has no response headers); this covers
    // anything served over http(s) into the app's session.
    session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
      callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
    });
    session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) => callback(isPermissionAllowed(permission)));
    session.defaultSession.setPermissionCheckHandler((_contents, permission) => isPermissionAllowed(permission));

    const started = createCore({
      dataDir: app.getPath('userData'),
      host: 'electron',
      secrets: new SafeStorageSecrets(app.getPath('userData')),
      openPath: (path) => shell.openPath(path),
      // The window's first answer (the agent list) before the open tabs' sessions are read back.
      restoreAfterFirstAnswerMs: 1000,
    });
    core = started;
    for (const name of requestNames) {
      ipcMain.handle(`req:${name}`, async (event, input) => {
        // IPC from another frame (an iframe, a navigated-away page, another window) is ignored.
        if (!isTrustedSender(event, window && !window.isDestroyed() ? window.webContents : null, appUrl)) {
          return { ok: false, error: { code: 'bad_request', message: 'Request from an unexpected frame.' } };
        }
        return dispatch(started.handlers, name, input, JSON.stringify(input ?? null).length);
      });
    }
    started.on((name, payload) => {
      if (window && !window.isDestroyed()) window.webContents.send(`evt:${name}`, payload);
      if (name === 'session.events') {
        const batch = payload as EventPayload<'session.events'>;
        notify(batch.sessionId, batch.events);
      }
    });

    updates = startAutoUpdate({
      window: () => (window && !window.isDestroyed() ? window : null),
      busyReasons: () => core?.busyReasons() ?? [],
      beforeRestart: () => {
        quitting = true;
      },
    });
    Menu.setApplicationMenu(
      Menu.buildFromTemplate(
        buildMenuTemplate(process.platform, isDev, {
          run: (command) => {
            focusWindow();
            sendCommand({ command });
          },
          openExternal: (url) => {
            if (isExternalHttpUrl(url)) void shell.openExternal(url);
          },
          checkForUpdates: updates ? () => updates?.checkNow() : undefined,
        }),
      ),
    );

    createWindow();
    openDeepLink(launchLink);
  });

  app.on('activate', () => {
    if (!window && core && !quitting) createWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('before-quit', (event) => {
    if (!core) return;
    event.preventDefault();
    if (!quitting) {
      const decision = quitDecision(core.busyReasons());
      if (decision.kind === 'confirm') {
        askToQuit(decision);
        return;
      }
    }
    // Stop every agent (and its process tree) before the app goes.
    quitting = true;
    const closing = core;
    core = null;
    void closing.dispose().finally(() => app.quit());
  });
}
