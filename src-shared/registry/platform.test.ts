import { describe, expect, it } from 'vitest';
import { isPlatformTarget, PLATFORM_TARGETS, platformTarget } from './platform';

describe('platformTarget', () => {
  it('maps the six supported Node platform/arch pairs', () => {
    expect(platformTarget('darwin', 'arm64')).toBe('darwin-aarch64');
    expect(platformTarget('darwin', 'x64')).toBe('darwin-x86_64');
    expect(platformTarget('linux', 'arm64')).toBe('linux-aarch64');
    expect(platformTarget('linux', 'x64')).toBe('linux-x86_64');
    expect(platformTarget('win32', 'arm64')).toBe('windows-aarch64');
    expect(platformTarget('win32', 'x64')).toBe('windows-x86_64');
  });

  it('returns null where the registry has no builds', () => {
    expect(platformTarget('freebsd', 'x64')).toBeNull();
    expect(platformTarget('linux', 'ia32')).toBeNull();
    expect(platformTarget('win32', 'arm')).toBeNull();
    expect(platformTarget('', '')).toBeNull();
  });

  it('only produces targets the registry knows', () => {
    for (const os of ['darwin', 'linux', 'win32']) for (const arch of ['arm64', 'x64']) expect(isPlatformTarget(platformTarget(os, arch)!)).toBe(true);
    expect(PLATFORM_TARGETS).toHaveLength(6);
    expect(isPlatformTarget('linux-riscv64')).toBe(false);
  });
});
