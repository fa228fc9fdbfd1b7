import type { BrowserWindowConstructorOptions } from 'electron';

/** The renderer's Content-Security-Policy: only the app's own code; no inline scripts, no remote hosts. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The main window's options. The renderer is treated as untrusted: isolated, sandboxed,
 * no Node, web security on. Pure, so a unit test can assert every flag.
 */
export function mainWindowOptions(
  preloadPath: string,
  bounds?: { x?: number; y?: number; width: number; height: number },
  extra: { icon?: string } = {},
): BrowserWindowConstructorOptions {
  return {
    width: bounds?.width ?? 1280,
    height: bounds?.height ?? 820,
    x: bounds?.x,
    y: bounds?.y,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'ACP Desktop',
    // Native title bar and frame on every platform.
    frame: true,
    ...(extra.icon ? { icon: extra.icon } : {}),
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: true,
    },
  };
}

/**
 * Web permissions the renderer may get: copying to the clipboard (xterm, code blocks) and
 * web notifications. Everything else (camera, microphone, geolocation, MIDI, HID, serial,
 * reading the clipboard, opening external protocols…) is refused.
 */
export const ALLOWED_PERMISSIONS: readonly string[] = ['clipboard-sanitized-write', 'notifications'];

export function isPermissionAllowed(permission: string): boolean {
  return ALLOWED_PERMISSIONS.includes(permission);
}
