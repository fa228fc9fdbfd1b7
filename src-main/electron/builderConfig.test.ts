import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { APP_ID, DEEP_LINK_SCHEME, PRODUCT_NAME } from './appIdentity';

/**
 * electron-builder cannot run here (it downloads Electron), so its configuration is checked
 * the way electron-builder itself would check it (its JSON schema) plus the project's rules:
 * every platform target, icons at the right sizes, node-pty unpacked, the registry snapshot.
 */

const root = join(import.meta.dirname, '../..');
type Target = { target: string; arch: string[] };
interface PlatformOptions {
  target: Target[];
  icon: string;
  [key: string]: unknown;
}
/** The parts of electron-builder.yml the tests read (the schema check covers the rest). */
interface BuilderConfig {
  appId: string;
  productName: string;
  directories: { buildResources: string; output: string };
  files: string[];
  asar: boolean;
  asarUnpack: string[];
  npmRebuild: boolean;
  extraResources: { from: string; to: string }[];
  protocols: { name: string; schemes: string[] }[];
  publish: { provider: string; owner: string; repo: string; releaseType?: string }[];
  electronFuses: Record<string, boolean>;
  mac: PlatformOptions & { hardenedRuntime: boolean; entitlements: string; entitlementsInherit: string };
  win: PlatformOptions;
  nsis: Record<string, unknown>;
  linux: PlatformOptions & { maintainer: string };
}
interface PackageJson {
  main: string;
  productName: string;
  description: string;
  homepage: string;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as BuilderConfig;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageJson;

const targets = (platform: 'mac' | 'win' | 'linux'): Target[] => config[platform].target;
const archsOf = (platform: 'mac' | 'win' | 'linux', name: string) =>
  targets(platform)
    .find((target) => target.target === name)
    ?.arch.slice()
    .sort();

// ---------------------------------------------------------------- image headers

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG's IHDR chunk. */
function pngSize(data: Buffer): { width: number; height: number } {
  expect(data.subarray(0, 8).equals(PNG_SIGNATURE), 'PNG signature').toBe(true);
  expect(data.toString('ascii', 12, 16)).toBe('IHDR');
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

/** The entries of an ICO file: the size each really holds (read from the PNG or BMP inside). */
function icoSizes(data: Buffer): number[] {
  expect(data.readUInt16LE(0)).toBe(0);
  expect(data.readUInt16LE(2)).toBe(1);
  const count = data.readUInt16LE(4);
  const sizes: number[] = [];
  for (let i = 0; i < count; i++) {
    const at = 6 + i * 16;
    const declared = data.readUInt8(at) || 256;
    expect(data.readUInt8(at + 1) || 256).toBe(declared);
    const length = data.readUInt32LE(at + 8);
    const offset = data.readUInt32LE(at + 12);
    expect(offset + length).toBeLessThanOrEqual(data.length);
    const image = data.subarray(offset, offset + length);
    if (image.subarray(0, 8).equals(PNG_SIGNATURE)) {
      const { width, height } = pngSize(image);
      expect([width, height]).toEqual([declared, declared]);
    } else {
      // BITMAPINFOHEADER: the height counts the image and its mask.
      expect(image.readUInt32LE(0)).toBe(40);
      expect(image.readInt32LE(4)).toBe(declared);
      expect(image.readInt32LE(8)).toBe(declared * 2);
      expect(image.readUInt16LE(14)).toBe(32);
    }
    sizes.push(declared);
  }
  return sizes;
}

/** ICNS element types that hold a PNG, and the pixel size each must have. */
const ICNS_PNG_TYPES: Record<string, number> = { ic07: 128, ic08: 256, ic09: 512, ic10: 1024, ic11: 32, ic12: 64, ic13: 256, ic14: 512 };

function icnsElements(data: Buffer): Map<string, Buffer> {
  expect(data.toString('ascii', 0, 4)).toBe('icns');
  expect(data.readUInt32BE(4)).toBe(data.length);
  const elements = new Map<string, Buffer>();
  for (let at = 8; at < data.length;) {
    const type = data.toString('ascii', at, at + 4);
    const length = data.readUInt32BE(at + 4);
    expect(length).toBeGreaterThan(8);
    elements.set(type, data.subarray(at + 8, at + length));
    at += length;
  }
  return elements;
}

// ---------------------------------------------------------------- tests

describe('electron-builder.yml', () => {
  it("passes electron-builder's own schema validation", async () => {
    // Resolved through electron-builder, which depends on it; nothing here loads Electron.
    const requireFromBuilder = createRequire(createRequire(join(root, 'package.json')).resolve('electron-builder/package.json'));
    const { getConfig, validateConfiguration } = requireFromBuilder('app-builder-lib/out/util/config/config') as {
      getConfig(projectDir: string, configPath: string, options: null): Promise<unknown>;
      validateConfiguration(config: unknown, debugLogger: { isEnabled: boolean; add(): void }): Promise<void>;
    };
    const loaded = await getConfig(root, join(root, 'electron-builder.yml'), null);
    await expect(validateConfiguration(loaded, { isEnabled: false, add() {} })).resolves.toBeUndefined();
  });

  it('names the app as the running app does', () => {
    expect(config.appId).toBe(APP_ID);
    expect(config.productName).toBe(PRODUCT_NAME);
    expect(pkg.productName).toBe(PRODUCT_NAME);
    expect(config.directories.buildResources).toBe('resources');
  });

  it('packs the electron-vite output and the entry point package.json names', () => {
    expect(config.files).toContain('out/**');
    expect(pkg.main).toMatch(/^out\//);
    expect(config.asar).toBe(true);
  });

  it('unpacks node-pty from the asar and rebuilds native modules for Electron', () => {
    expect(config.asarUnpack).toContain('node_modules/node-pty/**');
    expect(config.npmRebuild).toBe(true);
    expect(pkg.dependencies['node-pty']).toBeDefined();
  });

  it('ships the bundled registry snapshot as <resources>/registry', () => {
    expect(config.extraResources).toContainEqual(expect.objectContaining({ from: 'resources/registry', to: 'registry' }));
  });

  it('builds dmg and zip for arm64 and x64 on macOS, hardened, with the entitlements Electron needs', () => {
    expect(archsOf('mac', 'dmg')).toEqual(['arm64', 'x64']);
    expect(archsOf('mac', 'zip')).toEqual(['arm64', 'x64']);
    expect(config.mac.hardenedRuntime).toBe(true);
    expect(config.mac.entitlements).toBe('resources/entitlements.mac.plist');
    expect(config.mac.entitlementsInherit).toBe('resources/entitlements.mac.plist');
    const plist = readFileSync(join(root, config.mac.entitlements), 'utf8');
    const granted = [...plist.matchAll(/<key>([^<]+)<\/key>\s*<true\/>/g)].map((match) => match[1]).sort();
    expect(granted).toEqual([
      'com.apple.security.cs.allow-jit',
      'com.apple.security.cs.allow-unsigned-executable-memory',
      'com.apple.security.cs.disable-library-validation',
    ]);
  });

  it('builds NSIS for x64 and arm64 on Windows', () => {
    expect(archsOf('win', 'nsis')).toEqual(['arm64', 'x64']);
    expect(config.nsis.oneClick).toBe(false);
    expect(config.nsis.deleteAppDataOnUninstall).toBe(false);
  });

  it('builds AppImage and deb for x64 and arm64 on Linux, with what deb requires', () => {
    expect(archsOf('linux', 'AppImage')).toEqual(['arm64', 'x64']);
    expect(archsOf('linux', 'deb')).toEqual(['arm64', 'x64']);
    // fpm refuses a deb without a maintainer e-mail and a project homepage.
    expect(config.linux.maintainer).toMatch(/<[^@\s]+@[^>\s]+>/);
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.description).toBeTruthy();
  });

  it('registers the deep-link scheme', () => {
    expect(config.protocols).toContainEqual(expect.objectContaining({ schemes: [DEEP_LINK_SCHEME] }));
  });

  it('publishes to the GitHub releases feed electron-updater reads', () => {
    expect(config.publish).toContainEqual(expect.objectContaining({ provider: 'github', owner: 'acp-desktop', repo: 'acp-desktop' }));
    expect(pkg.dependencies['electron-updater']).toBeDefined();
    // electron-builder refuses to package when these are production dependencies.
    expect(pkg.dependencies.electron).toBeUndefined();
    expect(pkg.dependencies['electron-builder']).toBeUndefined();
    expect(pkg.devDependencies.electron).toBeDefined();
  });

  it('flips the hardening fuses, keeping run-as-node that node-pty needs on Windows', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
      enableCookieEncryption: true,
    });
  });

  it('has one-command scripts per platform that never publish', () => {
    expect(pkg.scripts.dist).toMatch(/electron-builder/);
    expect(pkg.scripts['dist:mac']).toMatch(/--mac\b/);
    expect(pkg.scripts['dist:win']).toMatch(/--win\b/);
    expect(pkg.scripts['dist:linux']).toMatch(/--linux\b/);
    for (const name of ['dist', 'dist:mac', 'dist:win', 'dist:linux']) {
      expect(pkg.scripts[name]).toMatch(/^npm run build && /);
      expect(pkg.scripts[name]).toMatch(/--publish never/);
    }
    // Only the release script uploads, and only to a draft.
    expect(pkg.scripts.release).toMatch(/^npm run build && electron-builder .*--publish always/);
    expect(config.publish[0]).toMatchObject({ releaseType: 'draft' });
  });
});

describe('icons (generated from resources/icon.svg by scripts/make-icons.mjs)', () => {
  const resources = join(root, 'resources');

  it('has the one source image', () => {
    expect(readFileSync(join(resources, 'icon.svg'), 'utf8')).toMatch(/<svg[^>]+viewBox="0 0 1024 1024"/);
  });

  it('has the Linux icon set at every size, each PNG really that size', () => {
    expect(config.linux.icon).toBe('resources/icons');
    for (const size of [16, 24, 32, 48, 64, 128, 256, 512, 1024]) {
      expect(pngSize(readFileSync(join(resources, 'icons', `${size}x${size}.png`))), `${size}x${size}.png`).toEqual({ width: size, height: size });
    }
    expect(pngSize(readFileSync(join(resources, 'icon.png')))).toEqual({ width: 1024, height: 1024 });
  });

  it('has a Windows .ico with 16…256 px entries', () => {
    expect(config.win.icon).toBe('resources/icon.ico');
    const sizes = icoSizes(readFileSync(join(root, config.win.icon)));
    expect(sizes).toEqual(expect.arrayContaining([16, 24, 32, 48, 64, 128, 256]));
  });

  it('has a macOS .icns with every size up to 1024 px (512@2x)', () => {
    expect(config.mac.icon).toBe('resources/icon.icns');
    const elements = icnsElements(readFileSync(join(root, config.mac.icon)));
    for (const [type, size] of Object.entries(ICNS_PNG_TYPES)) {
      expect(elements.has(type), type).toBe(true);
      expect(pngSize(elements.get(type)!), type).toEqual({ width: size, height: size });
    }
    // Legacy 16 and 32 px RGB + mask for old readers (Finder list view).
    expect(elements.get('s8mk')?.length).toBe(16 * 16);
    expect(elements.get('l8mk')?.length).toBe(32 * 32);
    expect(elements.has('is32') && elements.has('il32')).toBe(true);
  });

  it('matches icon.svg (run `npm run icons` after changing it)', async () => {
    const { Resvg } = await import('@resvg/resvg-js');
    const svg = readFileSync(join(resources, 'icon.svg'));
    for (const size of [32, 256]) {
      const rendered = new Resvg(svg, { fitTo: { mode: 'width', value: size }, font: { loadSystemFonts: false } }).render().asPng();
      expect(Buffer.from(rendered).equals(readFileSync(join(resources, 'icons', `${size}x${size}.png`))), `${size}x${size}.png is stale`).toBe(true);
    }
  });

  it('ships the Linux window icon that desktopApp.ts loads', () => {
    expect(config.extraResources).toContainEqual({ from: 'resources/icons/512x512.png', to: 'icon.png' });
    expect(existsSync(join(resources, 'icons/512x512.png'))).toBe(true);
  });
});

describe('electron.vite.config.ts', () => {
  it('bundles the preload whole, as CommonJS, because a sandboxed preload can require only electron', async () => {
    const { default: viteConfig } = (await import('../../electron.vite.config')) as unknown as {
      default: { preload: { build: { externalizeDeps: unknown; rolldownOptions: { output: { format: string; entryFileNames: string } } } } };
    };
    const preload = viteConfig.preload.build;
    expect(preload.externalizeDeps).toBe(false);
    expect(preload.rolldownOptions.output.format).toBe('cjs');
    expect(preload.rolldownOptions.output.entryFileNames).toMatch(/\.cjs$/);
  });
});
