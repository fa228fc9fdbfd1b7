import { describe, expect, it } from 'vitest';
import { isAppUrl, isExternalHttpUrl } from './navigation';

describe('isExternalHttpUrl', () => {
  it('accepts http and https links', () => {
    expect(isExternalHttpUrl('https://agentclientprotocol.com/overview')).toBe(true);
    expect(isExternalHttpUrl('http://example.com')).toBe(true);
    expect(isExternalHttpUrl('HTTPS://EXAMPLE.COM/')).toBe(true);
  });

  it('refuses every other scheme and anything unparsable', () => {
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox',
      'smb://host/share',
      'ms-msdt:/id',
      'acp-desktop://install/x',
      'chrome://settings',
      'about:blank',
      '//example.com/no-scheme',
      'not a url',
      '',
    ]) {
      expect(isExternalHttpUrl(url), url).toBe(false);
    }
  });
});

describe('isAppUrl', () => {
  const app = 'file:///opt/ACP%20Desktop/resources/app.asar/out/renderer/index.html';

  it('accepts the app page itself, with any query or fragment', () => {
    expect(isAppUrl(app, app)).toBe(true);
    expect(isAppUrl(`${app}#/session/1`, app)).toBe(true);
    expect(isAppUrl(`${app}?reload=1`, app)).toBe(true);
  });

  it('refuses other files, other schemes and other hosts', () => {
    expect(isAppUrl('file:///opt/ACP%20Desktop/resources/app.asar/out/renderer/other.html', app)).toBe(false);
    expect(isAppUrl('file:///etc/passwd', app)).toBe(false);
    expect(isAppUrl('https://example.com/opt/ACP%20Desktop/resources/app.asar/out/renderer/index.html', app)).toBe(false);
    expect(isAppUrl('file://evil-host/opt/ACP%20Desktop/resources/app.asar/out/renderer/index.html', app)).toBe(false);
    expect(isAppUrl('javascript:alert(1)', app)).toBe(false);
    expect(isAppUrl('garbage', app)).toBe(false);
  });

  it('compares the host for http pages (a development server)', () => {
    expect(isAppUrl('http://localhost:5173/', 'http://localhost:5173/')).toBe(true);
    expect(isAppUrl('http://evil.example:5173/', 'http://localhost:5173/')).toBe(false);
    expect(isAppUrl('http://localhost:9999/', 'http://localhost:5173/')).toBe(false);
  });
});
