/**
 * Platform targets of the ACP registry's `binary` distribution
 * (https://agentclientprotocol.com/rfds/acp-agent-registry#binary): `<os>-<arch>`.
 */
export const PLATFORM_TARGETS = ['darwin-aarch64', 'darwin-x86_64', 'linux-aarch64', 'linux-x86_64', 'windows-aarch64', 'windows-x86_64'] as const;

export type PlatformTarget = (typeof PLATFORM_TARGETS)[number];

const OS: Record<string, string> = { darwin: 'darwin', linux: 'linux', win32: 'windows' };
const ARCH: Record<string, string> = { arm64: 'aarch64', x64: 'x86_64' };

/**
 * The registry target for a Node `process.platform` / `process.arch` pair, or null when the
 * registry has no builds for it (e.g. `freebsd`, `ia32`). Pure, so the renderer can use it too.
 */
export function platformTarget(platform: string, arch: string): PlatformTarget | null {
  const os = OS[platform];
  const cpu = ARCH[arch];
  if (!os || !cpu) return null;
  return `${os}-${cpu}` as PlatformTarget;
}

/** Whether a string is one of the six registry targets. */
export function isPlatformTarget(value: string): value is PlatformTarget {
  return (PLATFORM_TARGETS as readonly string[]).includes(value);
}
