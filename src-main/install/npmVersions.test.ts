import { describe, expect, it } from 'vitest';
import { fallbackVersion, isMissingVersion, npmErrorText, parseVersionList } from './npmVersions';

describe('a pinned npm version the registry no longer serves', () => {
  it('is recognised in npm’s output', () => {
    expect(isMissingVersion('npm error code ETARGET\nnpm error notarget No matching version found for @qwen-code/qwen-code@0.9.1.')).toBe(true);
    expect(isMissingVersion('npm error code E404\nnpm error 404 Not Found')).toBe(false);
  });

  it('falls back to the newest version of the same line, else the newest stable release', () => {
    expect(fallbackVersion('0.27.3', ['0.27.0', '0.27.4', '0.28.0', '0.30.0'])).toEqual({ version: '0.27.4', sameLine: true });
    expect(fallbackVersion('0.9.1', ['0.10.0', '0.24.2', '0.25.0-preview.1'])).toEqual({ version: '0.24.2', sameLine: false });
    expect(fallbackVersion('1.1.9', ['1.0.0', '1.2.0', '3.0.0'])).toEqual({ version: '1.2.0', sameLine: true });
    expect(fallbackVersion('1.0.0', ['1.0.0'])).toBeNull();
    expect(fallbackVersion('1.0.0', [])).toBeNull();
  });

  it('reads `npm view … versions --json` and prints npm’s error once', () => {
    expect(parseVersionList('["1.0.0","1.2.0"]')).toEqual(['1.0.0', '1.2.0']);
    expect(parseVersionList('"1.0.0"')).toEqual(['1.0.0']);
    expect(parseVersionList('oops')).toEqual([]);
    expect(parseVersionList('.0-nightly.1",\n  "0.27.4",\n  "0.28.0"\n]')).toEqual(['0.27.4', '0.28.0']);
    const twice =
      'npm error code ETARGET\nnpm error notarget No matching version found for x@1.\nnpm error code ETARGET\nnpm error notarget No matching version found for x@1.\nnpm error A complete log of this run can be found in: /root/.npm/_logs/x.log';
    expect(npmErrorText(twice)).toBe('npm error code ETARGET\nnpm error notarget No matching version found for x@1.');
  });
});
