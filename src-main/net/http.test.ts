import { expect, it } from 'vitest';
import { download } from '../install/download';
import { describeFetchError } from './http';

const failed = (code: string, extra: Record<string, string> = {}) =>
  Object.assign(new TypeError('fetch failed'), { cause: { code, message: `getaddrinfo ${code}`, ...extra } });

it('a download from github.com with no internet says that github.com could not be found, not only "getaddrinfo ENOTFOUND"', async () => {
  const url = 'https://github.com/sst/opencode/releases/download/v1.1.53/opencode-linux-x64.tar.gz';
  // What Node's fetch throws on a machine without internet (seen here: no DNS for github.com).
  const offline = (async () => {
    throw failed('ENOTFOUND', { hostname: 'github.com' });
  }) as typeof fetch;
  await expect(download(url, '/nonexistent/file', { fetch: offline })).rejects.toThrow(
    `Could not download ${url}: ENOTFOUND: github.com could not be found: no internet connection, or its name is blocked`,
  );
});

it('common network failures are said in words, with the code kept; unknown codes keep the cause', () => {
  expect(describeFetchError(failed('EAI_AGAIN'), 'https://cdn.example.com/registry.json')).toBe(
    'EAI_AGAIN: cdn.example.com could not be looked up: no internet connection, or name lookup is down',
  );
  expect(describeFetchError(failed('ECONNREFUSED'), 'http://127.0.0.1:9/x')).toBe('ECONNREFUSED: nothing answers at 127.0.0.1:9');
  expect(describeFetchError(failed('SELF_SIGNED_CERT_IN_CHAIN'), 'https://github.com/x')).toBe(
    'SELF_SIGNED_CERT_IN_CHAIN: the certificate of github.com could not be verified (a proxy in between?)',
  );
  expect(describeFetchError(failed('EWHATEVER', { message: 'something odd' }))).toBe('EWHATEVER (something odd)');
  expect(describeFetchError(Object.assign(new Error('x'), { name: 'TimeoutError' }))).toBe('the request timed out');
});
