/** Whether this run of the app looks for updates, and why not. */
export type UpdatePolicy = { enabled: true; firstCheckDelayMs: number; intervalMs: number } | { enabled: false; reason: string };

/** Setting this variable to `1` turns update checks off (managed installs, tests). */
export const DISABLE_UPDATES_ENV = 'ACP_DESKTOP_DISABLE_UPDATES';

/**
 * Updates are on only in a packaged app (`app.isPackaged`): a development run would find its
 * version "outdated" and try to replace the Electron binary. Linux updates need the AppImage
 * (APPIMAGE set) or a deb/rpm install (electron-updater reads `package-type` there); a plain
 * unpacked folder cannot update itself.
 */
export function updatePolicy(input: {
  isPackaged: boolean;
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  /** Linux: whether `<resources>/package-type` exists (deb, rpm, pacman builds). */
  hasPackageType?: boolean;
}): UpdatePolicy {
  if (!input.isPackaged) return { enabled: false, reason: 'development build' };
  if (input.env[DISABLE_UPDATES_ENV] === '1') return { enabled: false, reason: `${DISABLE_UPDATES_ENV}=1` };
  if (!['darwin', 'win32', 'linux'].includes(input.platform)) return { enabled: false, reason: `no updates for ${input.platform}` };
  if (input.platform === 'linux' && !input.env.APPIMAGE && !input.hasPackageType) {
    return { enabled: false, reason: 'not installed as an AppImage or a package' };
  }
  return { enabled: true, firstCheckDelayMs: 30_000, intervalMs: 6 * 60 * 60 * 1000 };
}

export const RESTART_BUTTON = 0;

/**
 * The question asked once an update is downloaded. Restarting is never automatic: "Later"
 * installs it on the next quit. When turns are running, Later is the default button and the
 * detail says what a restart would stop.
 */
export function restartPrompt(
  version: string,
  busyReasons: readonly string[],
): { message: string; detail: string; buttons: [string, string]; defaultId: number; cancelId: number } {
  const busy = busyReasons.length > 0;
  return {
    message: `ACP Desktop ${version} is ready to install.`,
    detail: busy
      ? `Restarting now stops what is running:\n${busyReasons
          .slice(0, 5)
          .map((reason) => `• ${reason}`)
          .join('\n')}\n\nChoose Later to install it when you next quit.`
      : 'Restart now to use it, or it is installed when you next quit.',
    buttons: ['Restart Now', 'Later'],
    defaultId: busy ? 1 : 0,
    cancelId: 1,
  };
}

/** Whether the answer to `restartPrompt` (the clicked button's index) means restart now. */
export function confirmsRestart(response: number): boolean {
  return response === RESTART_BUTTON;
}

/**
 * What a manual "Check for Updates…" tells the person when the check ends (automatic checks
 * stay silent unless an update was downloaded).
 */
export function manualCheckMessage(
  outcome: { kind: 'available'; version: string } | { kind: 'none'; currentVersion: string } | { kind: 'error'; message: string },
): { type: 'info' | 'error'; message: string; detail?: string } {
  switch (outcome.kind) {
    case 'available':
      return { type: 'info', message: `ACP Desktop ${outcome.version} is available.`, detail: 'It is downloading; you will be asked before the app restarts.' };
    case 'none':
      return { type: 'info', message: `ACP Desktop ${outcome.currentVersion} is the newest version.` };
    case 'error':
      return { type: 'error', message: 'Could not check for updates.', detail: outcome.message };
  }
}
