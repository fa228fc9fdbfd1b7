import type { MenuItemConstructorOptions } from 'electron';
import { DOCS_URL, PRODUCT_NAME } from './appIdentity';

/** The app's own commands the menu can run; they reach the renderer as the `ui.command` event. */
export type MenuCommand = 'newSession' | 'closeTab' | 'nextTab' | 'previousTab' | 'settings' | 'installAgent';

/** What the menu's items do: injected, so the template stays a pure function. */
export interface MenuActions {
  run(command: MenuCommand): void;
  openExternal(url: string): void;
  /** Shown only when given (packaged builds with updates on). */
  checkForUpdates?: () => void;
}

/**
 * Shortcuts shared with the renderer. The renderer handles these keys itself (App.tsx,
 * TabStrip.tsx, with preventDefault), because it also runs in a browser. So on Windows and
 * Linux the menu only *shows* them (`registerAccelerator: false`) and a key press is not
 * handled twice; on macOS the focused page gets a key first and the menu acts only on keys
 * the page left unhandled, so registering them there is safe.
 */
export const RENDERER_SHORTCUTS: Readonly<Partial<Record<MenuCommand, string>>> = {
  newSession: 'CmdOrCtrl+T',
  closeTab: 'CmdOrCtrl+W',
  nextTab: 'Ctrl+Tab',
  previousTab: 'Ctrl+Shift+Tab',
};

/** Shortcuts only the menu handles. */
export const MENU_SHORTCUTS: Readonly<Partial<Record<MenuCommand, string>>> = {
  settings: 'CmdOrCtrl+,',
};

const LABELS: Record<MenuCommand, string> = {
  newSession: 'New Session…',
  closeTab: 'Close Tab',
  nextTab: 'Next Tab',
  previousTab: 'Previous Tab',
  settings: 'Settings…',
  installAgent: 'Install Agent…',
};

/**
 * The application menu, per platform conventions: the macOS app menu; File; Edit with the
 * standard roles (so copy and paste work in text fields); View with zoom, plus reload and dev
 * tools in development only; Window; Help with the ACP documentation.
 */
export function buildMenuTemplate(platform: NodeJS.Platform, isDev: boolean, actions: MenuActions): MenuItemConstructorOptions[] {
  const isMac = platform === 'darwin';
  const command = (name: MenuCommand): MenuItemConstructorOptions => {
    const item: MenuItemConstructorOptions = { id: name, label: LABELS[name], click: () => actions.run(name) };
    const shared = RENDERER_SHORTCUTS[name];
    const own = MENU_SHORTCUTS[name];
    if (shared) {
      item.accelerator = shared;
      if (!isMac) item.registerAccelerator = false;
    } else if (own) {
      item.accelerator = own;
    }
    return item;
  };
  const separator: MenuItemConstructorOptions = { type: 'separator' };
  const updates: MenuItemConstructorOptions[] = actions.checkForUpdates
    ? [{ id: 'checkForUpdates', label: 'Check for Updates…', click: () => actions.checkForUpdates?.() }]
    : [];

  const appMenu: MenuItemConstructorOptions = {
    label: PRODUCT_NAME,
    submenu: [
      { role: 'about' },
      ...updates,
      separator,
      command('settings'),
      separator,
      { role: 'services' },
      separator,
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      separator,
      { role: 'quit' },
    ],
  };

  const fileMenu: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      command('newSession'),
      command('installAgent'),
      separator,
      command('closeTab'),
      ...(isMac ? [] : [separator, command('settings'), separator, { role: 'quit' } as MenuItemConstructorOptions]),
    ],
  };

  const editMenu: MenuItemConstructorOptions = {
    label: 'Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      separator,
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      ...(isMac
        ? ([{ role: 'pasteAndMatchStyle' }, { role: 'delete' }, { role: 'selectAll' }] as MenuItemConstructorOptions[])
        : ([{ role: 'delete' }, separator, { role: 'selectAll' }] as MenuItemConstructorOptions[])),
    ],
  };

  const viewMenu: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      ...(isDev ? ([{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, separator] as MenuItemConstructorOptions[]) : []),
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      separator,
      { role: 'togglefullscreen' },
    ],
  };

  const windowMenu: MenuItemConstructorOptions = {
    label: 'Window',
    ...(isMac ? { role: 'window' as const } : {}),
    submenu: [
      command('nextTab'),
      command('previousTab'),
      separator,
      { role: 'minimize' },
      ...(isMac ? ([{ role: 'zoom' }] as MenuItemConstructorOptions[]) : []),
      // CmdOrCtrl+W closes a tab, so closing the window takes Shift as well.
      { role: 'close', accelerator: 'CmdOrCtrl+Shift+W' },
      ...(isMac ? ([separator, { role: 'front' }] as MenuItemConstructorOptions[]) : []),
    ],
  };

  const helpMenu: MenuItemConstructorOptions = {
    label: 'Help',
    role: 'help',
    submenu: [
      { id: 'documentation', label: 'Agent Client Protocol Documentation', click: () => actions.openExternal(DOCS_URL) },
      ...(isMac ? [] : updates.length > 0 ? [separator, ...updates] : []),
    ],
  };

  return [...(isMac ? [appMenu] : []), fileMenu, editMenu, viewMenu, windowMenu, helpMenu];
}
