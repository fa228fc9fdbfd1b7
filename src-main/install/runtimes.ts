import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { semver } from './lazySemver';
import type { RuntimeInfo } from '../../src-shared/ipc/registryContract';
import { planSpawn } from '../process/spawnCommand';
import { logUnlessMissing } from '../log/mainLog';

/**
 * Finds the runtimes that `npx` and `uvx` agents need (Node.js + npm, uv) on this machine.
 * The app never uses Electron's own Node for agents: `process.execPath` is Electron there.
 */

/** Oldest Node.js the installer accepts; an agent's own `engines.node` is checked after install. */
export const MIN_NODE = '18.0.0';

export interface RunResult {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Each line of output as it comes (npm's progress). */
  onLine?: (line: string) => void;
}

/** Runs a program to completion, keeping the tail of its output. Never throws for a non-zero exit. */
export function runTool(command: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const plan = planSpawn(command, args, process.platform);
    const child = spawn(plan.file, plan.args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
      windowsVerbatimArguments: plan.windowsVerbatimArguments,
      // Its own process group, so a cancel also stops what npm started (install scripts).
      detached: process.platform !== 'win32',
    });
    let stdout = '';
    let stderr = '';
    let partial = '';
    const keep = (text: string) => text.slice(-64 * 1024);
    const lines = (chunk: string) => {
      if (!options.onLine) return;
      const parts = (partial + chunk).split(/\r?\n/);
      partial = parts.pop() ?? '';
      for (const line of parts) if (line.trim()) options.onLine(line);
    };
    child.stdout.on('data', (chunk: Buffer) => {
      stdout = keep(stdout + chunk.toString());
      lines(chunk.toString());
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = keep(stderr + chunk.toString());
      lines(chunk.toString());
    });
    const kill = () => {
      try {
        if (process.platform !== 'win32' && child.pid) process.kill(-child.pid, 'SIGTERM');
        else child.kill();
      } catch {
        child.kill();
      }
    };
    const timer = options.timeoutMs ? setTimeout(kill, options.timeoutMs) : undefined;
    options.signal?.addEventListener('abort', kill, { once: true });
    child.on('error', (error) => {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', kill);
      reject(error);
    });
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', kill);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** The full path of a program on PATH (with PATHEXT on Windows), or null. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string | null {
  const path = env.PATH ?? env.Path ?? '';
  const extensions = platform === 'win32' ? (env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean) : [''];
  for (const dir of path.split(platform === 'win32' ? ';' : delimiter)) {
    if (!dir) continue;
    for (const extension of extensions) {
      const candidate = join(dir, name + extension);
      try {
        const stat = statSync(candidate);
        if (stat.isFile() && (platform === 'win32' || (stat.mode & 0o111) !== 0)) return candidate;
      } catch (error) {
        logUnlessMissing(`Looking for ${candidate}`, error);
      }
    }
  }
  return null;
}

/**
 * Where Node.js and uv usually live outside PATH. An app started from the Dock, Finder or a
 * desktop launcher gets a short PATH without the person's shell setup (nvm, Homebrew, Volta,
 * uv's installer), so these are searched after PATH.
 */
export function commonToolDirs(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string[] {
  const home = env.HOME ?? env.USERPROFILE;
  const dirs: string[] = [];
  if (platform === 'darwin') dirs.push('/opt/homebrew/bin', '/usr/local/bin');
  if (platform === 'win32') {
    if (env.ProgramFiles) dirs.push(join(env.ProgramFiles, 'nodejs'));
    if (env.APPDATA) dirs.push(join(env.APPDATA, 'npm'));
  }
  if (!home) return dirs;
  dirs.push(
    join(home, '.volta', 'bin'),
    join(home, '.local', 'bin'),
    join(home, '.cargo', 'bin'),
    join(home, '.asdf', 'shims'),
    join(home, '.local', 'share', 'mise', 'shims'),
  );
  // nvm: the newest installed version first.
  const nvm = join(env.NVM_DIR ?? join(home, '.nvm'), 'versions', 'node');
  try {
    const versions = readdirSync(nvm)
      .filter((name) => semver().valid(name))
      .sort((a, b) => semver().rcompare(a, b));
    dirs.push(...versions.map((version) => join(nvm, version, 'bin')));
  } catch (error) {
    logUnlessMissing(`Listing nvm's Node.js versions in ${nvm}`, error);
  }
  return dirs;
}

/** A program on PATH, else in the usual places (`commonToolDirs`). */
export function findTool(name: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string | null {
  return (
    findOnPath(name, env, platform) ??
    findOnPath(name, { PATH: commonToolDirs(env, platform).join(platform === 'win32' ? ';' : delimiter), PATHEXT: env.PATHEXT }, platform)
  );
}

/**
 * PATH for a program found outside PATH: its folder first, so what it starts (`node` from a
 * `#!/usr/bin/env node` script, npm's own scripts) is found too. Undefined when not needed.
 */
export function pathWith(program: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (
    findOnPath(
      program
        .split(/[\\/]/)
        .pop()!
        .replace(/\.(cmd|exe|bat)$/i, ''),
      env,
    ) === program
  )
    return undefined;
  const current = env.PATH ?? env.Path ?? '';
  return current ? `${dirname(program)}${process.platform === 'win32' ? ';' : delimiter}${current}` : dirname(program);
}

async function versionOf(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string | null> {
  try {
    const result = await runTool(command, args, { env, timeoutMs: 15_000 });
    if (result.code !== 0) return null;
    return semver().coerce(result.stdout.trim())?.version ?? null;
  } catch {
    return null;
  }
}

/** What detection finds (the catalog adds whether a download is possible and running). */
type Detected = Pick<RuntimeInfo, 'ok' | 'version' | 'message'>;

export interface NodeRuntime extends Detected {
  node: string | null;
  npm: string | null;
  npmVersion: string | null;
}

/** Every distinct `name` found: PATH first, then the app's own runtimes, then the usual places. */
function candidates(name: string, env: NodeJS.ProcessEnv, managedDirs: readonly string[]): string[] {
  const found = [
    findOnPath(name, env),
    ...managedDirs.map((dir) => findOnPath(name, { PATH: dir, PATHEXT: env.PATHEXT })),
    ...commonToolDirs(env).map((dir) => findOnPath(name, { PATH: dir, PATHEXT: env.PATHEXT })),
  ];
  return [...new Set(found.filter((path): path is string => path !== null))];
}

/**
 * Node.js and npm for `npx` agents: the first recent-enough Node.js on PATH, in the app's own
 * runtimes folder (`managedDirs`) or in the usual places, with the npm beside it.
 */
export async function detectNode(env: NodeJS.ProcessEnv = process.env, managedDirs: readonly string[] = []): Promise<NodeRuntime> {
  let first: { node: string; version: string } | null = null;
  let chosen: { node: string; version: string } | null = null;
  for (const node of candidates('node', env, managedDirs)) {
    const version = await versionOf(node, ['--version'], env);
    if (!version) continue;
    first ??= { node, version };
    if (semver().gte(version, MIN_NODE)) {
      chosen = { node, version };
      break;
    }
  }
  const pick = chosen ?? first;
  const node = pick?.node ?? null;
  const version = pick?.version ?? null;
  // npm beside that node first: a second, older npm elsewhere on PATH would not match it.
  const besideNode = node ? findOnPath('npm', { PATH: dirname(node), PATHEXT: env.PATHEXT }) : null;
  const npm = besideNode ?? findTool('npm', env);
  // npm is a `#!/usr/bin/env node` script: it needs its node first on PATH.
  const npmEnv = node ? { ...env, PATH: pathWith(node, env) ?? env.PATH } : env;
  const npmVersion = npm ? await versionOf(npm, ['--version'], npmEnv) : null;
  const base = { node, npm, version, npmVersion };
  if (!node || !version) {
    return {
      ...base,
      ok: false,
      message: `Node.js was not found on this machine. Agents distributed through npm need Node.js ${MIN_NODE.split('.')[0]} or newer with npm: download it into the app's folder, or install it from https://nodejs.org or with your package manager, then try again.`,
    };
  }
  if (semver().lt(version, MIN_NODE)) {
    return {
      ...base,
      ok: false,
      message: `Node.js ${version} is too old (${node}); npm agents need Node.js ${MIN_NODE.split('.')[0]} or newer. Download a current one into the app's folder, or update it from https://nodejs.org, then try again.`,
    };
  }
  if (!npm || !npmVersion) {
    return {
      ...base,
      ok: false,
      message: `npm was not found beside Node.js ${version}. Install npm (it comes with the installer from https://nodejs.org), then try again.`,
    };
  }
  return { ...base, ok: true, message: null };
}

export interface UvRuntime extends Detected {
  uvx: string | null;
}

/** `uvx` (from Astral's uv) on PATH, for Python agents. */
export async function detectUv(env: NodeJS.ProcessEnv = process.env, managedDirs: readonly string[] = []): Promise<UvRuntime> {
  const uvx = candidates('uvx', env, managedDirs)[0] ?? null;
  const uv = uvx ? (findOnPath('uv', { PATH: dirname(uvx), PATHEXT: env.PATHEXT }) ?? findTool('uv', env)) : findTool('uv', env);
  const version = uv ? await versionOf(uv, ['--version'], env) : uvx ? await versionOf(uvx, ['--version'], env) : null;
  if (!uvx) {
    return {
      uvx: null,
      version,
      ok: false,
      message:
        "uv (uvx) was not found on this machine. Agents distributed through PyPI run with uvx: download it into the app's folder, or install uv from https://docs.astral.sh/uv/getting-started/installation/, then try again.",
    };
  }
  return { uvx, version, ok: true, message: null };
}
