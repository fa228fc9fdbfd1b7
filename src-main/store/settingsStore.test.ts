import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SettingsStore } from './settingsStore';

describe('settings.json changed by the app (SettingsStore.update)', () => {
  it('keeps keys this version does not know and writes the change', () => {
    const dir = mkdtempSync(join(tmpdir(), 'acp-settings-'));
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ theme: 'dark', futureKey: { kept: [1, 2] } }));
    const store = new SettingsStore(dir);
    store.update((json) => void (json.notifications = false));
    expect(JSON.parse(readFileSync(store.file, 'utf8'))).toEqual({ theme: 'dark', futureKey: { kept: [1, 2] }, notifications: false });
    expect(store.settings.notifications).toBe(false);
  });

  it('refuses with a clear message, and leaves the file as written, when it is not a JSON object', () => {
    const dir = mkdtempSync(join(tmpdir(), 'acp-settings-'));
    for (const text of ['[{ "theme": "dark" }]', '{ "theme": ']) {
      writeFileSync(join(dir, 'settings.json'), text);
      const store = new SettingsStore(dir);
      expect(() => store.update((json) => void (json.theme = 'light'))).toThrow(/settings\.json cannot be updated while it is malformed: settings\.json/);
      expect(readFileSync(store.file, 'utf8')).toBe(text);
    }
  });
});
