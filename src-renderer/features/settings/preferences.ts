import { useStore, type Theme } from '../../store';

export function applyPreferences(text: string): void {
  try {
    const json = JSON.parse(text) as { theme?: unknown; notifications?: unknown };
    const theme: Theme = json.theme === 'light' || json.theme === 'dark' ? json.theme : 'system';
    useStore.setState({ theme, notifications: json.notifications !== false });
  } catch {
    /* malformed: keep what we have */
  }
}
