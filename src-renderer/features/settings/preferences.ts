import { bridge } from '../../bridge';
import { useUiStore, type Theme } from '../../store/uiStore';

/** Reads the settings the renderer itself uses (theme, notifications) from settings.json. */
export async function loadSettingsPreferences(): Promise<void> {
  try {
    const { text } = await bridge.request('settings.read', {});
    applyPreferences(text);
  } catch {
    /* keep the defaults; the settings page shows the problem */
  }
}

export function applyPreferences(text: string): void {
  try {
    const json = JSON.parse(text) as { theme?: unknown; notifications?: unknown };
    const theme: Theme = json.theme === 'light' || json.theme === 'dark' ? json.theme : 'system';
    useUiStore.setState({ theme, notifications: json.notifications !== false });
  } catch {
    /* malformed: keep what we have */
  }
}
