import type { Handlers } from '../../src-shared/ipc/contract';
import { forgetPermission, rememberedPermissions } from './rememberedPermissions';
import type { SettingsStore } from './settingsStore';

type SettingsRows = 'settings.read' | 'settings.write' | 'permissions.remembered' | 'permissions.forget';

/** The settings rows of the handler table: the settings editor and the remembered permissions. */
export function settingsHandlers(settings: SettingsStore, changed: () => void): Pick<Handlers, SettingsRows> {
  return {
    'permissions.remembered': async () => ({ items: rememberedPermissions(settings.settings) }),
    'permissions.forget': async ({ key }) => {
      if (forgetPermission(settings, key)) changed();
      return { ok: true };
    },
    'settings.read': async () => ({ path: settings.file, text: settings.text(), error: settings.error }),
    'settings.write': async ({ text }) => {
      const error = settings.write(text);
      changed();
      return { error };
    },
  };
}
