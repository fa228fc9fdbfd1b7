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
export function mainWindowOptions(preloadPath: string, bounds?: { x?: number; y?: number; width: number; height: number }): BrowserWindowConstructorOptions {
  return {
    width: bounds?.width ?? 1280,
    height: bounds?.height ?? 820,
    x: bounds?.x,
    y: bounds?.y,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'ACP Desktop',
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
