import { describe, expect, it } from 'vitest';
import { confirmsRestart, DISABLE_UPDATES_ENV, manualCheckMessage, restartPrompt, updatePolicy } from './updates';

describe('updatePolicy', () => {
  it('is off in development (not packaged), whatever the platform', () => {
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      expect(updatePolicy({ isPackaged: false, platform, env: { APPIMAGE: '/x.AppImage' } })).toEqual({ enabled: false, reason: 'development build' });
    }
  });

  it('is on in packaged macOS and Windows builds, first check after a delay, then periodically', () => {
    for (const platform of ['darwin', 'win32'] as const) {
      const policy = updatePolicy({ isPackaged: true, platform, env: {} });
      expect(policy.enabled).toBe(true);
      if (!policy.enabled) continue;
      expect(policy.firstCheckDelayMs).toBeGreaterThan(0);
      expect(policy.intervalMs).toBeGreaterThanOrEqual(60 * 60 * 1000);
    }
  });

  it('on Linux needs an AppImage or a package install', () => {
    expect(updatePolicy({ isPackaged: true, platform: 'linux', env: { APPIMAGE: '/home/me/ACP.AppImage' } }).enabled).toBe(true);
    expect(updatePolicy({ isPackaged: true, platform: 'linux', env: {}, hasPackageType: true }).enabled).toBe(true);
    expect(updatePolicy({ isPackaged: true, platform: 'linux', env: {} })).toEqual({ enabled: false, reason: 'not installed as an AppImage or a package' });
  });

  it('can be turned off with an environment variable, and is off on other platforms', () => {
    expect(updatePolicy({ isPackaged: true, platform: 'win32', env: { [DISABLE_UPDATES_ENV]: '1' } }).enabled).toBe(false);
    expect(updatePolicy({ isPackaged: true, platform: 'win32', env: { [DISABLE_UPDATES_ENV]: '0' } }).enabled).toBe(true);
    expect(updatePolicy({ isPackaged: true, platform: 'freebsd', env: {} }).enabled).toBe(false);
  });
});

describe('restartPrompt', () => {
  it('asks before restarting, with Restart Now as the default when idle', () => {
    const prompt = restartPrompt('1.2.0', []);
    expect(prompt.message).toBe('ACP Desktop 1.2.0 is ready to install.');
    expect(prompt.buttons).toEqual(['Restart Now', 'Later']);
    expect(prompt.defaultId).toBe(0);
    expect(prompt.cancelId).toBe(1);
    expect(prompt.detail).toContain('next quit');
  });

  it('defaults to Later and names what a restart would stop when work is running', () => {
    const prompt = restartPrompt('1.2.0', ['A turn is running in “Refactor”.']);
    expect(prompt.defaultId).toBe(1);
    expect(prompt.detail).toContain('• A turn is running in “Refactor”.');
  });

  it('restarts only on Restart Now', () => {
    expect(confirmsRestart(0)).toBe(true);
    expect(confirmsRestart(1)).toBe(false);
    expect(confirmsRestart(-1)).toBe(false);
  });
});

describe('manualCheckMessage', () => {
  it('reports each outcome of Check for Updates…', () => {
    expect(manualCheckMessage({ kind: 'available', version: '2.0.0' })).toMatchObject({ type: 'info', message: 'ACP Desktop 2.0.0 is available.' });
    expect(manualCheckMessage({ kind: 'none', currentVersion: '1.0.0' })).toEqual({ type: 'info', message: 'ACP Desktop 1.0.0 is the newest version.' });
    expect(manualCheckMessage({ kind: 'error', message: 'offline' })).toEqual({ type: 'error', message: 'Could not check for updates.', detail: 'offline' });
  });
});
