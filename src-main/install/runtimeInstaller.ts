import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { semver } from './lazySemver';
import { describeFetchError, readLimited } from '../net/http';
import { cancelled, download, InstallError, type DownloadProgress } from './download';
import { extractArchive, sniffArchive } from './extract';

/**
 * Official runtimes downloaded into the app's own folder (`<data>/runtimes/`), for machines
 * without a usable Node.js (npx agents) or uv (uvx agents), as Zed and JetBrains do:
 * - Node.js: the newest LTS from nodejs.org/dist (`index.json`), checked against `SHASUMS256.txt`;
 * - uv: Astral's standalone build from its GitHub releases, checked against its `.sha256`.
 * Both mirrors can be replaced (ACP_DESKTOP_NODE_MIRROR, ACP_DESKTOP_UV_MIRROR), e.g. for a
 * company mirror or tests. Installs go through a temporary folder and are renamed into place.
 */

export type RuntimeName = 'node' | 'uv';

export const NODE_MIRROR_ENV = 'ACP_DESKTOP_NODE_MIRROR';
export const UV_MIRROR_ENV = 'ACP_DESKTOP_UV_MIRROR';
export const DEFAULT_NODE_MIRROR = 'https://nodejs.org/dist';
export const DEFAULT_UV_MIRROR = 'https://github.com/astral-sh/uv/releases/latest/download';

export function runtimesDir(dataDir: string): string {
  return join(dataDir, 'runtimes');
}

/** Folders holding the app's own `node`/`npm`, newest version first. */
export function managedNodeDirs(dataDir: string, platform: NodeJS.Platform = process.platform): string[] {
  const root = join(runtimesDir(dataDir), 'node');
  try {
    return readdirSync(root)
      .filter((name) => semver().valid(name))
      .sort((a, b) => semver().rcompare(a, b))
      .map((name) => (platform === 'win32' ? join(root, name) : join(root, name, 'bin')));
  } catch {
    return [];
  }
}

/** The folder holding the app's own `uv`/`uvx`, if there is one. */
export function managedUvDirs(dataDir: string): string[] {
  const dir = join(runtimesDir(dataDir), 'uv');
  return existsSync(dir) ? [dir] : [];
}

/** nodejs.org's name for a build: `node-v22.1.0-linux-x64.tar.gz`, `node-v22.1.0-win-arm64.zip`. */
export function nodeDistName(version: string, platform: string, arch: string): { file: string; folder: string } | null {
  const os = ({ darwin: 'darwin', linux: 'linux', win32: 'win' } as Record<string, string>)[platform];
  const cpu = ({ x64: 'x64', arm64: 'arm64' } as Record<string, string>)[arch];
  if (!os || !cpu) return null;
  const folder = `node-v${version}-${os}-${cpu}`;
  return { folder, file: `${folder}.${os === 'win' ? 'zip' : 'tar.gz'}` };
}

/** uv's name for a build: the Rust target triple. */
export function uvTriple(platform: string, arch: string): string | null {
  const cpu = ({ x64: 'x86_64', arm64: 'aarch64' } as Record<string, string>)[arch];
  if (!cpu) return null;
  if (platform === 'darwin') return `${cpu}-apple-darwin`;
  if (platform === 'linux') return `${cpu}-unknown-linux-gnu`;
  if (platform === 'win32') return `${cpu}-pc-windows-msvc`;
  return null;
}

/** Whether the app can download this runtime for the platform. */
export function canDownloadRuntime(name: RuntimeName, platform: string, arch: string): boolean {
  return name === 'node' ? nodeDistName('0.0.0', platform, arch) !== null : uvTriple(platform, arch) !== null;
}

export interface RuntimeInstallOptions {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  arch: string;
  signal: AbortSignal;
  fetch?: typeof fetch;
  onPhase: (phase: 'resolving' | 'downloading' | 'extracting' | 'verifying', message: string) => void;
  onProgress: (progress: DownloadProgress) => void;
}

async function fetchText(url: string, options: RuntimeInstallOptions, limit = 4 * 1024 * 1024): Promise<string> {
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, { signal: AbortSignal.any([options.signal, AbortSignal.timeout(30_000)]) });
  } catch (error) {
    if (options.signal.aborted) throw cancelled();
    throw new InstallError(`Could not reach ${url}: ${describeFetchError(error, url)}`, 'network');
  }
  if (!response.ok) {
    void response.body?.cancel();
    throw new InstallError(`${url} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}.`, 'http');
  }
  return readLimited(response, limit);
}

function sha256(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}

/** The newest LTS release in the mirror's `index.json`. */
export async function latestNodeLts(base: string, options: RuntimeInstallOptions): Promise<string> {
  const text = await fetchText(`${base}/index.json`, options, 16 * 1024 * 1024);
  let releases: { version?: unknown; lts?: unknown }[];
  try {
    releases = JSON.parse(text);
  } catch {
    throw new InstallError(`${base}/index.json is not a Node.js release index.`, 'http');
  }
  const versions = (Array.isArray(releases) ? releases : [])
    .filter((release) => release.lts && typeof release.version === 'string' && semver().valid(release.version))
    .map((release) => semver().clean(release.version as string)!)
    .sort(semver().rcompare);
  if (!versions[0]) throw new InstallError(`${base}/index.json lists no LTS release of Node.js.`, 'http');
  return versions[0];
}

async function verify(file: string, expected: string | undefined, what: string): Promise<void> {
  if (!expected || !/^[0-9a-f]{64}$/i.test(expected)) throw new InstallError(`No SHA-256 checksum was published for ${what}; it was not installed.`, 'verify');
  const actual = await sha256(file);
  if (actual.toLowerCase() !== expected.toLowerCase()) {
    throw new InstallError(`The download of ${what} does not match its published SHA-256 checksum; it was not installed.`, 'verify');
  }
}

/** Renames `source` to `target`, replacing what was there only once the new one is in place. */
function swapInto(source: string, target: string, work: string): void {
  mkdirSync(join(target, '..'), { recursive: true });
  const previous = join(work, 'previous');
  if (existsSync(target)) renameSync(target, previous);
  try {
    renameSync(source, target);
  } catch (error) {
    if (existsSync(previous)) renameSync(previous, target);
    throw error;
  }
}

/** The single top folder of an extracted archive, or the folder itself when files sit at its root. */
function topFolder(dir: string): string {
  const entries = readdirSync(dir);
  return entries.length === 1 && statSync(join(dir, entries[0])).isDirectory() ? join(dir, entries[0]) : dir;
}

async function downloadAndExtract(
  url: string,
  expected: (file: string) => Promise<string | undefined>,
  what: string,
  work: string,
  options: RuntimeInstallOptions,
): Promise<string> {
  const file = join(work, 'download');
  options.onPhase('downloading', `Downloading ${url}`);
  await download(url, file, { signal: options.signal, fetch: options.fetch, onProgress: options.onProgress });
  options.onPhase('verifying', `Checking the SHA-256 checksum of ${what}…`);
  await verify(file, await expected(file), what);
  const kind = sniffArchive(file);
  if (!kind) throw new InstallError(`The download of ${what} is not an archive.`, 'archive');
  options.onPhase('extracting', `Extracting ${what}…`);
  const out = join(work, 'extracted');
  await extractArchive(file, out, kind, { signal: options.signal });
  return topFolder(out);
}

export async function installNodeRuntime(options: RuntimeInstallOptions): Promise<{ version: string; dir: string }> {
  const base = (options.env[NODE_MIRROR_ENV] || DEFAULT_NODE_MIRROR).replace(/\/+$/, '');
  if (!nodeDistName('0.0.0', options.platform, options.arch)) {
    throw new InstallError(`nodejs.org has no Node.js build for ${options.platform}-${options.arch}.`, 'platform');
  }
  options.onPhase('resolving', `Looking up the current Node.js LTS at ${base}…`);
  const version = await latestNodeLts(base, options);
  const name = nodeDistName(version, options.platform, options.arch)!;
  const root = runtimesDir(options.dataDir);
  mkdirSync(join(root, '.tmp'), { recursive: true });
  const work = join(root, '.tmp', `node-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(work);
  try {
    const sums = await fetchText(`${base}/v${version}/SHASUMS256.txt`, options);
    const expected = sums
      .split(/\r?\n/)
      .map((line) => line.trim().split(/\s+/))
      .find((parts) => parts[1] === name.file)?.[0];
    const folder = await downloadAndExtract(`${base}/v${version}/${name.file}`, async () => expected, `Node.js ${version}`, work, options);
    const node = options.platform === 'win32' ? join(folder, 'node.exe') : join(folder, 'bin', 'node');
    if (!existsSync(node))
      throw new InstallError(`The Node.js ${version} archive has no ${options.platform === 'win32' ? 'node.exe' : 'bin/node'}.`, 'archive');
    if (options.signal.aborted) throw cancelled();
    const target = join(root, 'node', version);
    swapInto(folder, target, work);
    return { version, dir: target };
  } finally {
    rmSync(work, { recursive: true, force: true, maxRetries: 3 });
  }
}

export async function installUvRuntime(options: RuntimeInstallOptions): Promise<{ dir: string }> {
  const base = (options.env[UV_MIRROR_ENV] || DEFAULT_UV_MIRROR).replace(/\/+$/, '');
  const triple = uvTriple(options.platform, options.arch);
  if (!triple) throw new InstallError(`uv has no standalone build for ${options.platform}-${options.arch}.`, 'platform');
  const file = `uv-${triple}.${options.platform === 'win32' ? 'zip' : 'tar.gz'}`;
  const root = runtimesDir(options.dataDir);
  mkdirSync(join(root, '.tmp'), { recursive: true });
  const work = join(root, '.tmp', `uv-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(work);
  try {
    options.onPhase('resolving', `Downloading uv from ${base}…`);
    const expected = async () => (await fetchText(`${base}/${file}.sha256`, options)).trim().split(/\s+/)[0];
    const folder = await downloadAndExtract(`${base}/${file}`, expected, 'uv', work, options);
    const uvx = join(folder, options.platform === 'win32' ? 'uvx.exe' : 'uvx');
    if (!existsSync(uvx)) throw new InstallError(`The uv archive has no ${options.platform === 'win32' ? 'uvx.exe' : 'uvx'}.`, 'archive');
    if (options.signal.aborted) throw cancelled();
    const target = join(root, 'uv');
    swapInto(folder, target, work);
    return { dir: target };
  } finally {
    rmSync(work, { recursive: true, force: true, maxRetries: 3 });
  }
}
