import { app, dialog, type BrowserWindow, type MessageBoxOptions } from 'electron';
import type { AppUpdater } from 'electron-updater';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { confirmsRestart, manualCheckMessage, restartPrompt, updatePolicy } from './updates';

export interface UpdateHooks {
  window(): BrowserWindow | null;
  busyReasons(): string[];
  /** Called right before the app quits to install: the quit needs no second confirmation. */
  beforeRestart(): void;
}

export interface Updates {
  /** "Check for Updates…": like the periodic check, but it reports the outcome. */
  checkNow(): void;
}

/**
 * Auto-update from the release feed in electron-builder.yml (`publish`), through
 * electron-updater: checks a while after start and then periodically, downloads in the
 * background, and asks before restarting. Returns null (and loads nothing) when updates are
 * off, e.g. in development. The decisions live in updates.ts.
 */
export function startAutoUpdate(hooks: UpdateHooks): Updates | null {
  const policy = updatePolicy({
    isPackaged: app.isPackaged,
    platform: process.platform,
    env: process.env,
    hasPackageType: app.isPackaged && existsSync(join(process.resourcesPath, 'package-type')),
  });
  if (!policy.enabled) {
    console.info(`[updates] off: ${policy.reason}`);
    return null;
  }

  let updater: Promise<AppUpdater> | null = null;
  let manual = false;
  let prompting = false;
  // "Later" holds for that version: later checks find it downloaded again and must not re-ask.
  let postponed: string | null = null;

  const show = async (options: MessageBoxOptions) => {
    const window = hooks.window();
    return window ? dialog.showMessageBox(window, options) : dialog.showMessageBox(options);
  };
  const report = (outcome: Parameters<typeof manualCheckMessage>[0]) => {
    if (!manual) return;
    manual = false;
    void show({ ...manualCheckMessage(outcome), buttons: ['OK'], noLink: true });
  };

  const load = () =>
    (updater ??= import('electron-updater').then((module) => {
      // A CommonJS module: its exports may sit on `default` when imported from ESM.
      const instance = module.autoUpdater ?? module.default.autoUpdater;
      instance.autoDownload = true;
      instance.autoInstallOnAppQuit = true;
      instance.on('update-available', (info) => report({ kind: 'available', version: info.version }));
      instance.on('update-not-available', () => report({ kind: 'none', currentVersion: app.getVersion() }));
      instance.on('error', (error) => {
        console.error('[updates]', error);
        report({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
      });
      instance.on('update-downloaded', (info) => {
        if (prompting || postponed === info.version) return;
        prompting = true;
        void show({ type: 'info', ...restartPrompt(info.version, hooks.busyReasons()), noLink: true })
          .then(({ response }) => {
            if (!confirmsRestart(response)) {
              postponed = info.version;
              return;
            }
            hooks.beforeRestart();
            instance.quitAndInstall();
          })
          .finally(() => {
            prompting = false;
          });
      });
      return instance;
    }));

  const check = () => {
    load()
      .then((instance) => instance.checkForUpdates())
      .catch((error: unknown) => {
        console.error('[updates]', error);
        report({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
      });
  };

  setTimeout(check, policy.firstCheckDelayMs);
  setInterval(check, policy.intervalMs);
  return {
    checkNow: () => {
      manual = true;
      check();
    },
  };
}
