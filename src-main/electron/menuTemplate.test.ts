import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { DOCS_URL } from './appIdentity';
import { buildMenuTemplate, type MenuCommand } from './menuTemplate';

type Item = MenuItemConstructorOptions;

function recorder() {
  const ran: MenuCommand[] = [];
  const opened: string[] = [];
  return { ran, opened, actions: { run: (command: MenuCommand) => ran.push(command), openExternal: (url: string) => opened.push(url) } };
}

/** Every item in the template, depth first. */
function flatten(items: Item[]): Item[] {
  return items.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? flatten(item.submenu as Item[]) : [])]);
}

function submenu(template: Item[], label: string): Item[] {
  const menu = template.find((item) => item.label === label);
  expect(menu, `menu "${label}"`).toBeDefined();
  return menu!.submenu as Item[];
}

const roles = (items: Item[]) => items.map((item) => item.role).filter(Boolean);
const click = (item: Item) => (item.click as unknown as () => void)();

describe('buildMenuTemplate', () => {
  it('has the macOS app menu first on macOS only', () => {
    const mac = buildMenuTemplate('darwin', false, recorder().actions);
    expect(mac.map((item) => item.label)).toEqual(['ACP Desktop', 'File', 'Edit', 'View', 'Window', 'Help']);
    expect(roles(submenu(mac, 'ACP Desktop'))).toEqual(['about', 'services', 'hide', 'hideOthers', 'unhide', 'quit']);
    for (const platform of ['win32', 'linux'] as const) {
      const template = buildMenuTemplate(platform, false, recorder().actions);
      expect(template.map((item) => item.label)).toEqual(['File', 'Edit', 'View', 'Window', 'Help']);
      // Without an app menu, Settings and Quit live in File.
      expect(submenu(template, 'File').map((item) => item.id ?? item.role ?? item.type)).toEqual([
        'newSession',
        'installAgent',
        'separator',
        'closeTab',
        'separator',
        'settings',
        'separator',
        'quit',
      ]);
    }
  });

  it('gives Edit the standard roles so copy and paste work', () => {
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      const edit = roles(submenu(buildMenuTemplate(platform, false, recorder().actions), 'Edit'));
      expect(edit).toEqual(expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']));
    }
    expect(roles(submenu(buildMenuTemplate('darwin', false, recorder().actions), 'Edit'))).toContain('pasteAndMatchStyle');
  });

  it('offers dev tools and reload in development only; zoom always', () => {
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      const production = roles(submenu(buildMenuTemplate(platform, false, recorder().actions), 'View'));
      expect(production).toEqual(['resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen']);
      expect(flatten(buildMenuTemplate(platform, false, recorder().actions)).some((item) => item.role === 'toggleDevTools')).toBe(false);
      const development = roles(submenu(buildMenuTemplate(platform, true, recorder().actions), 'View'));
      expect(development).toEqual(['reload', 'forceReload', 'toggleDevTools', 'resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen']);
    }
  });

  it("runs the app's own commands with the renderer's shortcuts", () => {
    const { ran, actions } = recorder();
    const items = flatten(buildMenuTemplate('darwin', false, actions));
    const byId = (id: string) => items.find((item) => item.id === id)!;
    expect(byId('newSession').accelerator).toBe('CmdOrCtrl+T');
    expect(byId('closeTab').accelerator).toBe('CmdOrCtrl+W');
    expect(byId('nextTab').accelerator).toBe('Ctrl+Tab');
    expect(byId('previousTab').accelerator).toBe('Ctrl+Shift+Tab');
    expect(byId('settings').accelerator).toBe('CmdOrCtrl+,');
    expect(byId('installAgent').accelerator).toBeUndefined();
    for (const id of ['newSession', 'closeTab', 'nextTab', 'previousTab', 'settings', 'installAgent']) click(byId(id));
    expect(ran).toEqual(['newSession', 'closeTab', 'nextTab', 'previousTab', 'settings', 'installAgent']);
  });

  it('does not register the shortcuts the renderer handles itself on Windows and Linux (no double handling)', () => {
    for (const platform of ['win32', 'linux'] as const) {
      const items = flatten(buildMenuTemplate(platform, false, recorder().actions));
      for (const id of ['newSession', 'closeTab', 'nextTab', 'previousTab']) {
        const item = items.find((entry) => entry.id === id)!;
        expect(item.accelerator, id).toBeDefined();
        expect(item.registerAccelerator, id).toBe(false);
      }
      expect(items.find((entry) => entry.id === 'settings')!.registerAccelerator).toBeUndefined();
    }
    const mac = flatten(buildMenuTemplate('darwin', false, recorder().actions));
    expect(mac.every((item) => item.registerAccelerator === undefined)).toBe(true);
  });

  it('never binds one accelerator twice (closing the window takes Shift)', () => {
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      const accelerators = flatten(buildMenuTemplate(platform, true, recorder().actions))
        .map((item) => item.accelerator)
        .filter((accelerator): accelerator is string => typeof accelerator === 'string');
      expect(new Set(accelerators).size, platform).toBe(accelerators.length);
      const close = flatten(buildMenuTemplate(platform, false, recorder().actions)).find((item) => item.role === 'close');
      expect(close?.accelerator).toBe('CmdOrCtrl+Shift+W');
    }
  });

  it('has a Window menu with tab navigation, and the macOS window roles on macOS', () => {
    const mac = buildMenuTemplate('darwin', false, recorder().actions);
    expect(mac.find((item) => item.label === 'Window')!.role).toBe('window');
    expect(roles(submenu(mac, 'Window'))).toEqual(['minimize', 'zoom', 'close', 'front']);
    const linux = submenu(buildMenuTemplate('linux', false, recorder().actions), 'Window');
    expect(linux.map((item) => item.id ?? item.role ?? item.type)).toEqual(['nextTab', 'previousTab', 'separator', 'minimize', 'close']);
  });

  it('links the ACP documentation from Help', () => {
    const { opened, actions } = recorder();
    const help = submenu(buildMenuTemplate('linux', false, actions), 'Help');
    click(help.find((item) => item.id === 'documentation')!);
    expect(opened).toEqual([DOCS_URL]);
    expect(DOCS_URL).toBe('https://agentclientprotocol.com');
  });

  it('shows Check for Updates only when updates are on', () => {
    let checks = 0;
    const withUpdates = { ...recorder().actions, checkForUpdates: () => checks++ };
    for (const platform of ['darwin', 'win32'] as const) {
      expect(flatten(buildMenuTemplate(platform, false, recorder().actions)).some((item) => item.id === 'checkForUpdates')).toBe(false);
      const item = flatten(buildMenuTemplate(platform, false, withUpdates)).find((entry) => entry.id === 'checkForUpdates');
      expect(item).toBeDefined();
      click(item!);
    }
    expect(checks).toBe(2);
    // macOS: in the app menu; elsewhere: in Help.
    expect(submenu(buildMenuTemplate('darwin', false, withUpdates), 'ACP Desktop').some((item) => item.id === 'checkForUpdates')).toBe(true);
    expect(submenu(buildMenuTemplate('win32', false, withUpdates), 'Help').some((item) => item.id === 'checkForUpdates')).toBe(true);
  });
});
