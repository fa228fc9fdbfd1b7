import { bridge } from '../../bridge';
import { run } from '../../store';
import { applyPreferences } from './preferences';
import { logRenderer } from '../../log';

/** settings.json as text, with its path and what is wrong with it. */
export const readSettings = () => run(bridge.request('settings.read', {}));
export const writeSettings = (text: string) => run(bridge.request('settings.write', { text }));
export const listRememberedPermissions = () => run(bridge.request('permissions.remembered', {}));
export const forgetPermission = (key: string) => run(bridge.request('permissions.forget', { key }));

/** Reads the settings the renderer itself uses (theme, notifications) from settings.json. */
export async function loadSettingsPreferences(): Promise<void> {
  try {
    const { text } = await bridge.request('settings.read', {});
    applyPreferences(text);
  } catch (error) {
    // The defaults stay; the settings page shows the problem.
    logRenderer('warn', 'Reading settings.json for the theme and notifications', error);
  }
}
