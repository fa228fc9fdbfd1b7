import { expect, it } from 'vitest';
import { decodeAuthMethod } from '../../src-main/acp/decode/controls';

/** The link an `env_var` method offers. */
const authLink = (method: { link?: unknown }) => decodeAuthMethod({ id: 'm', type: 'env_var', ...method }).link;
import { parseUrl } from './url';

it('parses a URL with the host’s URL class, and reads anything else as none', () => {
  expect(parseUrl('https://example.com/a b')?.href).toBe('https://example.com/a%20b');
  expect(parseUrl('mailto:someone@example.com')?.protocol).toBe('mailto:');
  expect(parseUrl('not a url')).toBeNull();
  expect(parseUrl('')).toBeNull();
});

it("offers an auth method's link only when it is an http(s) URL", () => {
  expect(authLink({ link: 'https://example.com/login' })).toBe('https://example.com/login');
  expect(authLink({ link: 'HTTP://Example.com' })).toBe('http://example.com/');
  expect(authLink({ link: 'javascript:alert(1)' })).toBeNull();
  expect(authLink({ link: 'file:///etc/passwd' })).toBeNull();
  expect(authLink({ link: 'example.com/login' })).toBeNull();
  expect(authLink({ link: 42 })).toBeNull();
  expect(authLink({})).toBeNull();
});
