import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALLOWED_PERMISSIONS, CONTENT_SECURITY_POLICY, isPermissionAllowed, mainWindowOptions } from './windowOptions';

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name, sources]),
  );
}

describe('mainWindowOptions (the hardened shell)', () => {
  const options = mainWindowOptions('/app/out/preload/index.cjs');
  const web = options.webPreferences!;

  it('isolates the renderer: context isolation and the sandbox on', () => {
    expect(web.contextIsolation).toBe(true);
    expect(web.sandbox).toBe(true);
  });

  it('gives the renderer no Node, not in workers or subframes either', () => {
    expect(web.nodeIntegration).toBe(false);
    expect(web.nodeIntegrationInWorker).toBe(false);
    expect(web.nodeIntegrationInSubFrames).toBe(false);
  });

  it('keeps web security on and refuses insecure content, webviews and experimental features', () => {
    expect(web.webSecurity).toBe(true);
    expect(web.allowRunningInsecureContent).toBe(false);
    expect(web.webviewTag).toBe(false);
    expect(web.experimentalFeatures).toBe(false);
    expect(web.navigateOnDragDrop).toBe(false);
  });

  it('loads the contract preload (a CommonJS file, as a sandboxed preload must be)', () => {
    expect(web.preload).toBe('/app/out/preload/index.cjs');
    expect(web.preload).toMatch(/\.cjs$/);
  });

  it('sets no option that would weaken the defaults', () => {
    const weakening = ['enableBlinkFeatures', 'additionalArguments', 'disableBlinkFeatures', 'partition', 'session', 'enableRemoteModule', 'plugins'];
    for (const key of weakening) expect(web).not.toHaveProperty(key);
  });

  it('asserts every web preference it sets (a new one needs a decision here)', () => {
    expect(Object.keys(web).sort()).toEqual(
      [
        'allowRunningInsecureContent',
        'contextIsolation',
        'experimentalFeatures',
        'navigateOnDragDrop',
        'nodeIntegration',
        'nodeIntegrationInSubFrames',
        'nodeIntegrationInWorker',
        'preload',
        'sandbox',
        'spellcheck',
        'webSecurity',
        'webviewTag',
      ].sort(),
    );
  });

  it('starts hidden (shown on ready-to-show) with a native frame and a minimum size', () => {
    expect(options.show).toBe(false);
    expect(options.frame).toBe(true);
    expect(options.minWidth).toBeGreaterThan(0);
    expect(options.minHeight).toBeGreaterThan(0);
    expect(options).not.toHaveProperty('icon');
  });

  it('uses remembered bounds and a window icon when given', () => {
    const placed = mainWindowOptions('/p.cjs', { x: 10, y: 20, width: 900, height: 700 }, { icon: '/r/icon.png' });
    expect(placed).toMatchObject({ x: 10, y: 20, width: 900, height: 700, icon: '/r/icon.png' });
    expect(mainWindowOptions('/p.cjs')).toMatchObject({ width: 1280, height: 820 });
  });
});

describe('CONTENT_SECURITY_POLICY', () => {
  const csp = directives(CONTENT_SECURITY_POLICY);

  it('allows only the app itself for scripts, with no inline or eval', () => {
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
    expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
  });

  it('names no remote host anywhere', () => {
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/https?:|wss?:|\*/);
  });

  it('shuts plugins, base URLs, form posts and framing', () => {
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    expect(csp.get('form-action')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('allows what the renderer needs: inline styles, data: images and fonts, blob: workers (Monaco)', () => {
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:']);
    expect(csp.get('font-src')).toEqual(["'self'", 'data:']);
    expect(csp.get('worker-src')).toEqual(["'self'", 'blob:']);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
  });

  it("matches the renderer page's own <meta> policy, which is what applies over file://", () => {
    const html = readFileSync(join(import.meta.dirname, '../../src-renderer/index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html);
    expect(meta, 'src-renderer/index.html has a CSP <meta>').not.toBeNull();
    const page = directives(meta![1]);
    // frame-ancestors is ignored in a <meta> policy, so only the header carries it.
    const header = new Map([...csp].filter(([name]) => name !== 'frame-ancestors'));
    expect(Object.fromEntries(page)).toEqual(Object.fromEntries(header));
  });
});

describe('permissions', () => {
  it('grants only clipboard writes and notifications', () => {
    expect([...ALLOWED_PERMISSIONS].sort()).toEqual(['clipboard-sanitized-write', 'notifications']);
    for (const permission of ['media', 'geolocation', 'clipboard-read', 'openExternal', 'midi', 'hid', 'serial', 'usb', 'fullscreen', 'pointerLock']) {
      expect(isPermissionAllowed(permission)).toBe(false);
    }
    expect(isPermissionAllowed('notifications')).toBe(true);
    expect(isPermissionAllowed('clipboard-sanitized-write')).toBe(true);
  });
});
