import type { Settings } from '../../src-shared/settings';
import { UserError } from '../errors/errors';
import type { SettingsStore } from './settingsStore';

export interface RememberedPermission {
  key: string;
  agentId: string;
  toolKind: string;
  optionKind: string;
}

/** "Always allow" answers kept in settings.json (`alwaysAllow`, keyed `<agent id>:<tool kind>`). */
export function rememberedPermissions(settings: Settings): RememberedPermission[] {
  return Object.entries(settings.alwaysAllow).map(([key, optionKind]) => {
    const cut = key.lastIndexOf(':');
    return { key, agentId: cut > 0 ? key.slice(0, cut) : key, toolKind: cut > 0 ? key.slice(cut + 1) : '', optionKind };
  });
}

/** Removes one remembered answer from settings.json, keeping the rest of the file; false when it was not there. */
export function forgetPermission(store: SettingsStore, key: string): boolean {
  const json = JSON.parse(store.text()) as { alwaysAllow?: Record<string, string> };
  if (!json.alwaysAllow || !(key in json.alwaysAllow)) return false;
  delete json.alwaysAllow[key];
  const error = store.write(JSON.stringify(json, null, 2));
  if (error) throw new UserError(error);
  return true;
}
