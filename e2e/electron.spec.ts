import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';

/**
 * The desktop app end to end, in real Electron. Runs only where an Electron binary exists:
 * Electron ≥ 42 downloads it on first use, which machines without internet cannot do, and
 * loading the `electron` package would start that download — so this file never imports it;
 * it finds the binary itself and hands Playwright its path.
 */

const root = resolve(import.meta.dirname, '..');

function findElectron(): { executable: string } | { reason: string } {
  if (process.env.ELECTRON_EXEC_PATH) {
    return existsSync(process.env.ELECTRON_EXEC_PATH)
      ? { executable: process.env.ELECTRON_EXEC_PATH }
      : { reason: `No Electron binary on this machine: ELECTRON_EXEC_PATH=${process.env.ELECTRON_EXEC_PATH} does not exist.` };
  }
  const pathFile = join(root, 'node_modules/electron/path.txt');
  if (!existsSync(pathFile)) {
    return {
      reason:
        'No Electron binary on this machine: node_modules/electron/path.txt is missing (Electron ≥ 42 downloads its binary on first use and this machine cannot reach the download host; set ELECTRON_EXEC_PATH to run these tests).',
    };
  }
  const executable = join(root, 'node_modules/electron/dist', readFileSync(pathFile, 'utf8').trim());
  if (!existsSync(executable)) return { reason: `No Electron binary on this machine: ${executable} is missing.` };
  return { executable };
}

const found = findElectron();
const built = existsSync(join(root, 'out/main/index.js')) && existsSync(join(root, 'out/preload/index.cjs'));

test.describe('Electron app', () => {
  test.skip(!('executable' in found), 'reason' in found ? found.reason : '');
  test.skip(!built, 'The app is not built: run `npm run build` first.');

  let app: ElectronApplication;
  let page: Page;
  let dataDir: string;

  test.beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'acp-electron-'));
    app = await electron.launch({
      executablePath: (found as { executable: string }).executable,
      args: [root],
      cwd: root,
      env: { ...process.env, ACP_DESKTOP_DATA_DIR: dataDir, ACP_DESKTOP_DISABLE_UPDATES: '1' } as Record<string, string>,
    });
    page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
  });

  test.afterEach(async () => {
    await app?.close();
  });

  test('opens one hardened window showing the app', async () => {
    await expect(page).toHaveTitle('ACP Desktop');
    const windows = await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().map((window) => ({ visible: window.isVisible() })));
    expect(windows).toEqual([{ visible: true }]);
    // The page is isolated and sandboxed: it sees the bridge but neither Node nor the preload's scope.
    const isolated = await page.evaluate(() => typeof (globalThis as unknown as { module?: unknown }).module === 'undefined');
    expect(isolated).toBe(true);
  });

  test('gives the page no Node and exactly the contract bridge', async () => {
    const surface = await page.evaluate(() => {
      const scope = globalThis as unknown as { require?: unknown; process?: unknown; acpDesktop?: Record<string, unknown> };
      return { require: typeof scope.require, process: typeof scope.process, bridge: Object.keys(scope.acpDesktop ?? {}).sort() };
    });
    expect(surface).toEqual({ require: 'undefined', process: 'undefined', bridge: ['on', 'requests'] });
  });

  test('refuses window.open and navigation away from the app', async () => {
    const opened = await page.evaluate(() => window.open('file:///etc/hosts') === null);
    expect(opened).toBe(true);
    const url = page.url();
    await page.evaluate(() => {
      location.href = 'file:///etc/hosts';
    });
    await page.waitForTimeout(500);
    expect(page.url()).toBe(url);
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
  });

  test('has the application menu, and its commands reach the page as ui.command', async () => {
    const labels = await app.evaluate(({ Menu }) => Menu.getApplicationMenu()?.items.map((item) => item.label) ?? []);
    expect(labels).toEqual(expect.arrayContaining(['File', 'Edit', 'View', 'Window', 'Help']));
    await page.evaluate(() => {
      const scope = globalThis as unknown as { commands: unknown[]; acpDesktop: { on(name: string, listener: (payload: unknown) => void): void } };
      scope.commands = [];
      scope.acpDesktop.on('ui.command', (payload) => scope.commands.push(payload));
    });
    await app.evaluate(({ Menu }) => {
      Menu.getApplicationMenu()?.getMenuItemById('settings')?.click();
    });
    await expect.poll(() => page.evaluate(() => (globalThis as unknown as { commands: unknown[] }).commands)).toContainEqual({ command: 'settings' });
  });

  test('remembers the window bounds in the data folder', async () => {
    await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0].setBounds({ x: 40, y: 60, width: 1000, height: 700 }));
    await app.close();
    const saved = JSON.parse(readFileSync(join(dataDir, 'window-state.json'), 'utf8')) as { bounds: { width: number; height: number } };
    expect(saved.bounds).toMatchObject({ width: 1000, height: 700 });
  });
});
