import { describe, expect, it } from 'vitest';
import { parseSettings } from './settings';

describe('worktrees setting', () => {
  it('defaults to the app folder and no copied files', () => {
    expect(parseSettings('{}').settings.worktrees).toEqual({ copyFiles: [] });
  });

  it('keeps a folder and relative file list', () => {
    const { settings, error } = parseSettings(JSON.stringify({ worktrees: { folder: '/home/me/wt', copyFiles: ['.env', 'config/local.json'] } }));
    expect(error).toBeNull();
    expect(settings.worktrees).toEqual({ folder: '/home/me/wt', copyFiles: ['.env', 'config/local.json'] });
  });

  it('refuses a copied file outside the repository, saying where, and keeps the rest of the settings', () => {
    for (const bad of ['../secrets', '/etc/passwd', 'a/../../b']) {
      const { settings, error } = parseSettings(JSON.stringify({ theme: 'dark', worktrees: { copyFiles: ['.env', bad] } }));
      expect(error).toContain('worktrees.copyFiles[1]: a path relative to the repository, without ".."');
      expect(settings.theme).toBe('dark');
      expect(settings.worktrees.copyFiles).toEqual([]);
    }
  });
});
