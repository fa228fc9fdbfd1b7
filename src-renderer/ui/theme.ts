const DARK = '(prefers-color-scheme: dark)';
let preference: 'system' | 'light' | 'dark' = 'system';
let watching = false;

/**
 * Resolves the theme setting to `data-theme="light" | "dark"` on the root element, following the
 * OS while the setting is `system`. CSS, Monaco and xterm read only this attribute, so the dark
 * palette is written once instead of once per way of asking for it.
 */
export function applyTheme(theme: 'system' | 'light' | 'dark'): void {
  preference = theme;
  const media = window.matchMedia(DARK);
  document.documentElement.dataset.theme = theme === 'system' ? (media.matches ? 'dark' : 'light') : theme;
  if (!watching) {
    watching = true;
    media.addEventListener('change', () => applyTheme(preference));
  }
}

export function isDarkTheme(): boolean {
  return document.documentElement.dataset.theme === 'dark';
}
