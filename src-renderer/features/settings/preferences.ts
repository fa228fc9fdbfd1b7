import { useStore, type Theme } from '../../store';
import { logRenderer } from '../../log';

export function applyPreferences(text: string): void {
  try {
    const json = JSON.parse(text) as { theme?: unknown; notifications?: unknown };
    const theme: Theme = json.theme === 'light' || json.theme === 'dark' ? json.theme : 'system';
    useStore.setState({ theme, notifications: json.notifications !== false });
  } catch (error) {
    // Malformed while being edited: keep what we have (the settings page shows the problem).
    logRenderer('debug', 'Reading the theme and notifications from settings.json', error);
  }
}
