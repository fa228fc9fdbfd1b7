// Over 400 lines on purpose: install, update and uninstall share one staging pipeline (temp folder,
// verify, atomic rename, manifest) for the three distribution kinds; the per-kind steps are in
// extract.ts, download.ts, npmVersions.ts and runtimes.ts.
import {
  chmodSync,
  closeSync,
  existsSync,
  openSync,
  readSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import { semver } from './lazySemver';
import type { InstallProgress } from '../../src-shared/ipc/registryContract';
import type { ProtocolSetting } from '../../src-shared/settings';
import { platformTarget, type PlatformTarget } from '../../src-shared/registry/platform';
import {
  agentIdSchema,
  agentVersionSchema,
  parsePackageSpec,
  resolveDistributions,
  type DistributionKind,
  type RegistryAgent,
  type ResolvedDistribution,
} from '../../src-shared/registry/schema';
import type { LaunchSpec } from '../process/agentProcess';
import { writeFileAtomic } from '../store/jsonFile';
import { cancelled, describeFsError, download, formatBytes, InstallError } from './download';
import { checkEntryPath, extractArchive, looksLikeArchiveUrl, sniffArchive } from './extract';
import { fallbackVersion, isMissingVersion, npmErrorText, parseVersionList } from './npmVersions';
import { probeAgent } from './probe';
import { detectNode, detectUv, findOnPath, findTool, pathWith, runTool } from './runtimes';
import { installNodeRuntime, installUvRuntime, managedNodeDirs, managedUvDirs, type RuntimeName } from './runtimeInstaller';
import { logWarn } from '../log/mainLog';

/**
 * Installs registry agents into `<data>/agents/<id>/<version>/`, one folder per version, with
 * `<data>/agents/<id>/current.json` naming the version in use. Work happens in
 * `<data>/agents/.tmp/` and is renamed into place only when complete, so a cancel, a crash or
 * a failure never leaves a half-installed agent. An update installs beside the old version and
 * switches `current.json` only after the new one answers `initialize`.
 */

export const MANIFEST = '.acp-install.json';

/** How to start an installed agent, relative to its version folder. */
export type RunSpec =
  | { type: 'binary'; cmd: string }
  | { type: 'node'; script: string; /** The Node.js it was installed with. */ node?: string }
  | { type: 'bin'; path: string }
  | { type: 'uvx'; package: string; uvx?: string };

export interface InstallManifest {
  manifestVersion: 1;
  agentId: string;
  name: string;
  description: string;
  version: string;
  distribution: DistributionKind;
  installedAt: string;
  target: PlatformTarget | null;
  /** The archive URL or package spec that was installed. */
  source: string;
  run: RunSpec;
  args: string[];
  env: Record<string, string>;
  /** The registry entry as it was at install time (unknown fields included). */
  entry: RegistryAgent;
}

export interface InstalledAgent {
  manifest: InstallManifest;
  dir: string;
}

export interface AgentOverride {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
}

export interface InstallerOptions {
  dataDir: string;
  platform?: NodeJS.Platform;
  arch?: string;
  /** Environment for runtime detection, npm and uvx (tests point npm at a local registry here). */
  env?: NodeJS.ProcessEnv;
  fetch?: typeof fetch;
  probeTimeoutMs?: number;
  /** The agent's `protocol` setting: the check after an update speaks what the app will speak to it. */
  protocol?: (agentId: string) => ProtocolSetting;
  npmTimeoutMs?: number;
  onProgress?: (progress: InstallProgress) => void;
  now?: () => Date;
}

interface Operation {
  action: InstallProgress['action'];
  controller: AbortController;
  progress: InstallProgress;
  /** "Install anyway": a Node.js older than the package's `engines` is a warning, not a refusal. */
  ignoreEngines?: boolean;
  /** The package spec npm installed when it differs from the catalog's (a missing pinned version). */
  installedSpec?: string;
  /** Said when the install is done (the substituted version, the Node.js warning). */
  notes: string[];
}

export class Installer {
  readonly agentsDir: string;
  readonly tmpDir: string;
  readonly target: PlatformTarget | null;
  private operations = new Map<string, Operation>();
  private lastErrors = new Map<string, string>();
  private lastErrorReasons = new Map<string, string>();

  constructor(private readonly options: InstallerOptions) {
    this.agentsDir = join(options.dataDir, 'agents');
    this.tmpDir = join(this.agentsDir, '.tmp');
    this.target = platformTarget(options.platform ?? process.platform, options.arch ?? process.arch);
  }

  private get env(): NodeJS.ProcessEnv {
    return this.options.env ?? process.env;
  }

  // ---------------------------------------------------------------- what is installed

  /** Every installed agent (the version `current.json` names, with a readable manifest). */
  list(): InstalledAgent[] {
    let ids: string[] = [];
    try {
      ids = readdirSync(this.agentsDir).filter((name) => !name.startsWith('.') && agentIdSchema.safeParse(name).success);
    } catch {
      return [];
    }
    return ids.map((id) => this.get(id)).filter((agent): agent is InstalledAgent => agent !== null);
  }

  get(agentId: string): InstalledAgent | null {
    if (!agentIdSchema.safeParse(agentId).success) return null;
    try {
      const current = JSON.parse(readFileSync(join(this.agentsDir, agentId, 'current.json'), 'utf8')) as { version?: unknown };
      if (typeof current.version !== 'string' || !agentVersionSchema.safeParse(current.version).success) return null;
      const dir = join(this.agentsDir, agentId, current.version);
      const manifest = JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')) as InstallManifest;
      if (manifest.agentId !== agentId || manifest.version !== current.version) return null;
      return { manifest, dir };
    } catch {
      return null;
    }
  }

  /** The command line for an installed agent, with the person's overrides from `agentOverrides`. */
  launchSpec(installed: InstalledAgent, override?: AgentOverride): LaunchSpec {
    const { manifest, dir } = installed;
    const run = manifest.run;
    let command: string;
    let args: string[];
    switch (run.type) {
      case 'binary':
        command = resolve(dir, run.cmd);
        args = [];
        break;
      case 'node':
        command = this.program('node', run.node);
        args = [resolve(dir, run.script)];
        break;
      case 'bin':
        command = resolve(dir, run.path);
        args = [];
        break;
      case 'uvx':
        command = this.program('uvx', run.uvx);
        args = [run.package];
        break;
    }
    // A runtime found outside PATH (nvm, Homebrew) goes first on the agent's PATH too.
    const runtimePath =
      (run.type === 'node' || run.type === 'uvx' || run.type === 'bin') && isAbsolute(command) && !override?.command
        ? pathWith(run.type === 'bin' ? this.program('node', undefined) : command, this.env)
        : undefined;
    return {
      command: override?.command ?? command,
      args: [...args, ...manifest.args, ...(override?.args ?? [])],
      env: { ...(runtimePath ? { PATH: runtimePath } : {}), ...manifest.env, ...override?.env },
    };
  }

  /** A runtime program: the one recorded at install time if it is still there, else PATH, the app's own, the usual places. */
  private program(name: 'node' | 'uvx', recorded: string | undefined): string {
    if (recorded && existsSync(recorded)) return recorded;
    const managed = name === 'node' ? managedNodeDirs(this.options.dataDir, this.platform) : managedUvDirs(this.options.dataDir);
    return (
      findOnPath(name, this.env) ??
      managed.map((dir) => findOnPath(name, { PATH: dir, PATHEXT: this.env.PATHEXT })).find((path) => path !== null) ??
      findTool(name, this.env) ??
      name
    );
  }

  private get platform(): NodeJS.Platform {
    return this.options.platform ?? process.platform;
  }

  /** Node.js and npm as npm installs would use them (PATH, the app's own runtime, the usual places). */
  detectNode() {
    return detectNode(this.env, managedNodeDirs(this.options.dataDir, this.platform));
  }

  detectUv() {
    return detectUv(this.env, managedUvDirs(this.options.dataDir));
  }

  /**
   * Downloads the official Node.js (LTS) or uv into `<data>/runtimes/`. Progress is reported
   * under the id `@node` / `@uv`; `cancel('@node')` stops it.
   */
  async installRuntime(name: RuntimeName): Promise<{ version: string | null }> {
    const operation = this.begin(`@${name}`, 'install');
    const label = name === 'node' ? 'Node.js' : 'uv';
    try {
      const options = {
        dataDir: this.options.dataDir,
        env: this.env,
        platform: this.platform,
        arch: this.options.arch ?? process.arch,
        signal: operation.controller.signal,
        fetch: this.options.fetch,
        onPhase: (phase: InstallProgress['phase'], message: string) => this.report(operation, { phase, message }),
        onProgress: ({ bytes, total, bytesPerSecond }: { bytes: number; total: number | null; bytesPerSecond: number }) =>
          this.report(operation, {
            phase: 'downloading',
            bytes,
            total,
            bytesPerSecond,
            message: `Downloading ${label}: ${formatBytes(bytes)}${total ? ` of ${formatBytes(total)}` : ''}`,
          }),
      };
      const version = name === 'node' ? (await installNodeRuntime(options)).version : await this.installUv(options);
      this.report(operation, { phase: 'done', message: `${label}${version ? ` ${version}` : ''} was installed into the app's folder.` });
      this.finish(operation, null);
      return { version };
    } catch (error) {
      return this.finish(operation, error) as never;
    }
  }

  private async installUv(options: Parameters<typeof installUvRuntime>[0]): Promise<string | null> {
    await installUvRuntime(options);
    return (await this.detectUv()).version;
  }

  /** What is being installed, updated or uninstalled right now (for the quit confirmation). */
  activeOperations(): string[] {
    return [...this.operations.values()].map((operation) => `The ${operation.action} of ${operation.progress.agentId} is in progress.`);
  }

  busy(agentId: string): InstallProgress | null {
    return this.operations.get(agentId)?.progress ?? null;
  }

  lastError(agentId: string): string | null {
    return this.lastErrors.get(agentId) ?? null;
  }

  /** Why the last install failed (`engines`: the person may install anyway). */
  lastErrorReason(agentId: string): string | null {
    return this.lastErrorReasons.get(agentId) ?? null;
  }

  /**
   * Removes leftovers of interrupted work and versions no longer in use (best effort). Only
   * what is older than `minAgeMs`: another app process on the same data folder (the desktop
   * app and `serve`) may be installing right now.
   */
  cleanup(minAgeMs = 60 * 60_000): void {
    const now = Date.now();
    const old = (path: string) => {
      try {
        return now - statSync(path).mtimeMs > minAgeMs;
      } catch {
        return false;
      }
    };
    const remove = (path: string) => {
      try {
        rmSync(path, { recursive: true, force: true });
      } catch (error) {
        logWarn(`Removing ${path} (still in use on Windows? retried on the next start)`, error);
      }
    };
    try {
      for (const name of readdirSync(this.tmpDir)) if (!this.operations.size && old(join(this.tmpDir, name))) remove(join(this.tmpDir, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') logWarn(`Cleaning ${this.tmpDir}`, error);
    }
    for (const installed of this.list()) {
      const parent = join(this.agentsDir, installed.manifest.agentId);
      for (const name of readdirSync(parent)) {
        if (name === 'current.json' || name === installed.manifest.version || name.startsWith('current.json.')) continue;
        if (old(join(parent, name))) remove(join(parent, name));
      }
    }
  }

  // ---------------------------------------------------------------- operations

  private begin(agentId: string, action: InstallProgress['action']): Operation {
    if (this.operations.has(agentId)) {
      throw new InstallError(`${agentId} is already being ${this.operations.get(agentId)!.action === 'uninstall' ? 'uninstalled' : 'installed'}.`);
    }
    const operation: Operation = {
      action,
      controller: new AbortController(),
      progress: { agentId, action, phase: 'resolving', bytes: 0, total: null, bytesPerSecond: 0, message: 'Starting…' },
      notes: [],
    };
    this.operations.set(agentId, operation);
    this.lastErrors.delete(agentId);
    this.lastErrorReasons.delete(agentId);
    return operation;
  }

  private report(operation: Operation, change: Partial<InstallProgress>): void {
    operation.progress = { ...operation.progress, ...change };
    this.options.onProgress?.(operation.progress);
  }

  private finish(operation: Operation, error: unknown): never | void {
    this.operations.delete(operation.progress.agentId);
    if (!error) return;
    const isCancel = operation.controller.signal.aborted || (error instanceof InstallError && error.reason === 'cancelled');
    const message = isCancel ? `Cancelled: nothing was changed.` : (error as Error).message;
    if (!isCancel) this.lastErrors.set(operation.progress.agentId, message);
    if (!isCancel && error instanceof InstallError) this.lastErrorReasons.set(operation.progress.agentId, error.reason);
    this.report(operation, { phase: isCancel ? 'cancelled' : 'failed', message });
    throw isCancel ? cancelled() : error instanceof InstallError ? error : new InstallError(message);
  }

  /** Cancels a running install or update. Returns false when none is running. */
  cancel(agentId: string): boolean {
    const operation = this.operations.get(agentId);
    if (!operation || operation.action === 'uninstall') return false;
    operation.controller.abort();
    return true;
  }

  /** Installs the registry version of an agent and makes it current. */
  async install(agent: RegistryAgent, preferred?: DistributionKind, options: { ignoreEngines?: boolean } = {}): Promise<InstalledAgent> {
    const operation = this.begin(agent.id, 'install');
    operation.ignoreEngines = options.ignoreEngines === true;
    try {
      const installed = await this.installVersion(agent, preferred, operation);
      this.switchTo(agent.id, installed.manifest.version);
      this.report(operation, { phase: 'done', message: [`${agent.name} ${installed.manifest.version} is installed.`, ...operation.notes].join(' ') });
      this.finish(operation, null);
      this.cleanupOldVersions(agent.id, installed.manifest.version);
      return installed;
    } catch (error) {
      return this.finish(operation, error) as never;
    }
  }

  /**
   * Installs the registry version beside the current one, checks that it answers `initialize`,
   * then switches to it. When the check fails the new version is removed and the old one stays.
   */
  async update(agent: RegistryAgent): Promise<InstalledAgent> {
    const current = this.get(agent.id);
    if (!current) throw new InstallError(`${agent.name} is not installed.`);
    if (!isNewer(agent.version, current.manifest.version)) {
      throw new InstallError(`${agent.name} ${current.manifest.version} is already the newest version.`);
    }
    const operation = this.begin(agent.id, 'update');
    try {
      const installed = await this.installVersion(agent, current.manifest.distribution, operation);
      this.report(operation, { phase: 'verifying', message: `Checking that ${agent.name} ${agent.version} starts…` });
      try {
        await probeAgent(this.launchSpec(installed), this.options.probeTimeoutMs ?? 30_000, this.options.protocol?.(agent.id) ?? 'v1');
      } catch (error) {
        rmSync(installed.dir, { recursive: true, force: true });
        throw new InstallError(
          `${agent.name} ${agent.version} was not switched to: it did not answer initialize (${(error as Error).message}). ${current.manifest.version} is still installed.`,
          'verify',
        );
      }
      if (operation.controller.signal.aborted) {
        rmSync(installed.dir, { recursive: true, force: true });
        throw cancelled();
      }
      this.switchTo(agent.id, installed.manifest.version);
      this.report(operation, { phase: 'done', message: `${agent.name} was updated to ${installed.manifest.version}.` });
      this.finish(operation, null);
      return installed;
    } catch (error) {
      return this.finish(operation, error) as never;
    }
  }

  /** Removes an agent's files and its saved secrets (`<data>/secrets/<id>` and `<id>.*`). */
  async uninstall(agentId: string): Promise<void> {
    const parsed = agentIdSchema.safeParse(agentId);
    if (!parsed.success) throw new InstallError(`"${agentId}" is not an agent id.`);
    const folder = join(this.agentsDir, agentId);
    if (!existsSync(folder)) throw new InstallError(`${agentId} is not installed.`);
    const operation = this.begin(agentId, 'uninstall');
    try {
      this.report(operation, { phase: 'uninstalling', message: 'Removing files…' });
      // Move it out of the way first: a half-deleted folder must never look installed.
      mkdirSync(this.tmpDir, { recursive: true });
      const trash = join(this.tmpDir, `${agentId}-removed-${Date.now()}`);
      try {
        renameSync(folder, trash);
      } catch (error) {
        throw describeFsError(error, folder);
      }
      rmSync(trash, { recursive: true, force: true, maxRetries: 3 });
      this.removeSecrets(agentId);
      this.report(operation, { phase: 'done', message: `${agentId} was uninstalled.` });
      this.finish(operation, null);
    } catch (error) {
      this.finish(operation, error);
    }
  }

  private removeSecrets(agentId: string): void {
    const dir = join(this.options.dataDir, 'secrets');
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    // Exactly `<id>` or `<id>.<anything>`: `gemini` must not take `gemini-cli`'s secrets.
    for (const name of names) if (name === agentId || name.startsWith(`${agentId}.`)) rmSync(join(dir, name), { recursive: true, force: true });
  }

  private switchTo(agentId: string, version: string): void {
    writeFileAtomic(join(this.agentsDir, agentId, 'current.json'), JSON.stringify({ version }) + '\n');
  }

  private cleanupOldVersions(agentId: string, keep: string): void {
    const parent = join(this.agentsDir, agentId);
    for (const name of readdirSync(parent)) {
      if (name === 'current.json' || name === keep) continue;
      try {
        rmSync(join(parent, name), { recursive: true, force: true });
      } catch (error) {
        logWarn(`Removing an old version of ${agentId} (in use? removed by cleanup() on a later start)`, error);
      }
    }
  }

  // ---------------------------------------------------------------- one version

  private pick(agent: RegistryAgent, preferred?: DistributionKind): ResolvedDistribution {
    const options = resolveDistributions(agent, this.target);
    if (options.length === 0) {
      const binaryTargets = Object.keys(agent.distribution.binary ?? {});
      throw new InstallError(
        this.target
          ? `${agent.name} is not available for this platform (${this.target})${binaryTargets.length ? `: it has builds for ${binaryTargets.join(', ')}` : ''}.`
          : `${agent.name} is not available for this platform (${this.options.platform ?? process.platform}-${this.options.arch ?? process.arch} is not a registry target).`,
        'platform',
      );
    }
    if (preferred) {
      const match = options.find((option) => option.kind === preferred);
      if (!match) throw new InstallError(`${agent.name} has no ${preferred} distribution for ${this.target ?? 'this platform'}.`, 'platform');
      return match;
    }
    return options[0];
  }

  private async installVersion(agent: RegistryAgent, preferred: DistributionKind | undefined, operation: Operation): Promise<InstalledAgent> {
    const signal = operation.controller.signal;
    const distribution = this.pick(agent, preferred);
    const finalDir = join(this.agentsDir, agent.id, agent.version);
    const current = this.get(agent.id);
    mkdirSync(this.tmpDir, { recursive: true });
    let work: string;
    try {
      work = mkdtempSync(join(this.tmpDir, `${agent.id}-`));
    } catch (error) {
      throw describeFsError(error, this.tmpDir);
    }
    const payload = join(work, 'payload');
    try {
      mkdirSync(payload);
      let run: RunSpec;
      let source: string;
      if (distribution.kind === 'binary') {
        source = distribution.spec.archive;
        run = await this.installBinary(agent, distribution.spec.archive, distribution.spec.cmd, work, payload, operation);
      } else if (distribution.kind === 'npx') {
        run = await this.installNpm(agent, distribution.spec.package, payload, operation);
        source = operation.installedSpec ?? distribution.spec.package;
      } else {
        source = distribution.spec.package;
        run = await this.installUvx(agent, distribution.spec.package, operation);
      }
      if (signal.aborted) throw cancelled();
      const manifest: InstallManifest = {
        manifestVersion: 1,
        agentId: agent.id,
        name: agent.name,
        description: agent.description,
        version: agent.version,
        distribution: distribution.kind,
        installedAt: (this.options.now?.() ?? new Date()).toISOString(),
        target: distribution.kind === 'binary' ? distribution.target : null,
        source,
        run,
        args: distribution.spec.args ?? [],
        env: distribution.spec.env ?? {},
        entry: agent,
      };
      writeFileSync(join(payload, MANIFEST), JSON.stringify(manifest, null, 2));
      // Move into place. A leftover folder of this version that is not current is replaced.
      mkdirSync(join(this.agentsDir, agent.id), { recursive: true });
      if (existsSync(finalDir)) {
        if (current?.manifest.version === agent.version) {
          // Reinstalling the current version: swap, so the old copy stays usable until the switch.
          renameSync(finalDir, join(work, 'previous'));
        } else {
          rmSync(finalDir, { recursive: true, force: true });
        }
      }
      renameSync(payload, finalDir);
      return { manifest, dir: finalDir };
    } catch (error) {
      throw error instanceof InstallError ? error : describeFsError(error, this.agentsDir);
    } finally {
      rmSync(work, { recursive: true, force: true, maxRetries: 3 });
    }
  }

  private async installBinary(agent: RegistryAgent, url: string, cmd: string, work: string, payload: string, operation: Operation): Promise<RunSpec> {
    const signal = operation.controller.signal;
    const cmdPath = checkEntryPath(cmd.replace(/^\.\//, ''));
    if ('error' in cmdPath || cmdPath.path === '') {
      throw new InstallError(
        `The registry entry of ${agent.name} names an unsafe command "${cmd}" (${'error' in cmdPath ? cmdPath.error : 'empty'}).`,
        'unsafe',
      );
    }
    const file = join(work, 'download');
    this.report(operation, { phase: 'downloading', message: `Downloading ${url}` });
    await download(url, file, {
      signal,
      fetch: this.options.fetch,
      onProgress: ({ bytes, total, bytesPerSecond }) =>
        this.report(operation, {
          phase: 'downloading',
          bytes,
          total,
          bytesPerSecond,
          message: `Downloading: ${formatBytes(bytes)}${total ? ` of ${formatBytes(total)}` : ''}`,
        }),
    });
    const kind = sniffArchive(file);
    const target = join(payload, ...cmdPath.path.split('/'));
    if (kind) {
      this.report(operation, { phase: 'extracting', message: `Extracting (${kind})…` });
      await extractArchive(file, payload, kind, { signal });
    } else if (!looksLikeArchiveUrl(url)) {
      // A bare executable: it is the command itself.
      mkdirSync(join(target, '..'), { recursive: true });
      renameSync(file, target);
    } else {
      throw new InstallError(`The download from ${url} is not a zip or tar archive.`, 'archive');
    }
    // The command must exist inside the folder (following links, which were checked) and be a file.
    let real: string;
    try {
      real = realpathSync.native(target);
    } catch {
      throw new InstallError(`The archive of ${agent.name} does not contain its command "${cmd}". Nothing was installed.`, 'archive');
    }
    const rel = relative(realpathSync.native(payload), real);
    if (rel.startsWith('..') || isAbsolute(rel) || rel.split(sep).includes('..'))
      throw new InstallError(`The command "${cmd}" points outside the agent's folder.`, 'unsafe');
    if (!statSync(real).isFile()) throw new InstallError(`The command "${cmd}" in the archive of ${agent.name} is not a file.`, 'archive');
    if ((this.options.platform ?? process.platform) !== 'win32') chmodSync(real, statSync(real).mode | 0o755);
    return { type: 'binary', cmd: cmdPath.path };
  }

  private async installNpm(agent: RegistryAgent, spec: string, payload: string, operation: Operation): Promise<RunSpec> {
    const signal = operation.controller.signal;
    this.report(operation, { phase: 'resolving', message: 'Looking for Node.js and npm…' });
    const runtime = await this.detectNode();
    if (!runtime.ok || !runtime.npm) throw new InstallError(runtime.message ?? 'Node.js and npm are needed.', 'runtime');
    const { name } = parsePackageSpec(spec);
    // A private package.json keeps npm from walking up to a project the data folder may be inside.
    writeFileSync(
      join(payload, 'package.json'),
      JSON.stringify({ name: `acp-agent-${agent.id}`, private: true, description: `${agent.name} for ACP Desktop` }, null, 2),
    );
    const npmPath = pathWith(runtime.node ?? runtime.npm, this.env);
    const npmEnv = { ...this.env, ...(npmPath ? { PATH: npmPath } : {}), npm_config_update_notifier: 'false' };
    const npm = async (args: string[], quiet = false) => {
      try {
        return await runTool(runtime.npm!, args, {
          cwd: payload,
          env: npmEnv,
          signal,
          timeoutMs: this.options.npmTimeoutMs ?? 15 * 60_000,
          onLine: quiet ? undefined : (line) => this.report(operation, { phase: 'installing', message: `npm: ${line.slice(0, 200)}` }),
        });
      } catch (error) {
        throw new InstallError(`npm could not be started (${runtime.npm}): ${(error as Error).message}`, 'npm');
      }
    };
    const install = (packageSpec: string) => {
      this.report(operation, { phase: 'installing', message: `npm install ${packageSpec} (npm ${runtime.npmVersion}, Node.js ${runtime.version})…` });
      return npm(['install', '--prefix', payload, '--no-audit', '--no-fund', '--omit=dev', '--loglevel=error', '--no-update-notifier', packageSpec]);
    };
    let result = await install(spec);
    if (signal.aborted) throw cancelled();
    let output = result.code === 0 ? '' : npmErrorText(result.stderr.trim() || result.stdout.trim());
    const pinned = parsePackageSpec(spec).version;
    if (result.code !== 0 && pinned && isMissingVersion(output)) {
      // The catalog pins a version npm no longer serves: offer the newest one of the same package.
      const view = await npm(['view', name, 'versions', '--json'], true);
      const fallback = view.code === 0 ? fallbackVersion(pinned, parseVersionList(view.stdout)) : null;
      if (fallback) {
        const note = `${name}@${pinned} (the catalog's version) is no longer on npm; installed ${fallback.version} instead, the newest ${fallback.sameLine ? `release of the same line (^${pinned})` : 'release'}.`;
        this.report(operation, { phase: 'installing', message: note });
        operation.installedSpec = `${name}@${fallback.version}`;
        operation.notes.push(note);
        result = await install(operation.installedSpec);
        if (signal.aborted) throw cancelled();
        output = result.code === 0 ? '' : npmErrorText(result.stderr.trim() || result.stdout.trim());
      }
    }
    if (result.code !== 0) {
      if (/ENOSPC/.test(output)) throw new InstallError(`Not enough disk space to install ${spec} (npm: ENOSPC).`, 'disk');
      throw new InstallError(
        `npm install ${operation.installedSpec ?? spec} failed${result.code !== null ? ` (exit code ${result.code})` : result.signal ? ` (${result.signal})` : ''}:\n${output}`,
        'npm',
      );
    }
    const packageDir = join(payload, 'node_modules', ...name.split('/'));
    let pkg: { bin?: string | Record<string, string>; engines?: { node?: string }; version?: string };
    try {
      pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
    } catch {
      throw new InstallError(`npm reported success but ${name} is not in ${packageDir}.`, 'npm');
    }
    const range = pkg.engines?.node;
    let node = runtime.node ?? undefined;
    if (range && runtime.version && semver().validRange(range) && !semver().satisfies(runtime.version, range)) {
      // npm only warns about `engines`, and agents often run fine on an older Node.js: a
      // warning the person can install past, or the app's own downloaded Node.js if it fits.
      const own = await this.managedNodeFor(range);
      if (own) {
        node = own.node;
        operation.notes.push(`It runs with the app's Node.js ${own.version} (it declares Node.js ${range}; this machine has ${runtime.version}).`);
      } else if (operation.ignoreEngines) {
        operation.notes.push(
          `It declares Node.js ${range} and runs with this machine's ${runtime.version}; if it misbehaves, download Node.js for the app and reinstall.`,
        );
      } else {
        throw new InstallError(
          `${agent.name}${pkg.version ? ` ${pkg.version}` : ''} declares Node.js ${range}; this machine has ${runtime.version} (${runtime.node}). npm installs it anyway and it often runs: choose “Install anyway”, or download Node.js for the app and install again.`,
          'engines',
        );
      }
    }
    const unscoped = name.split('/').pop() ?? name;
    const bins: Record<string, string> = typeof pkg.bin === 'string' ? { [unscoped]: pkg.bin } : (pkg.bin ?? {});
    const entries = Object.entries(bins);
    if (entries.length === 0) throw new InstallError(`The npm package ${name} has no executable (no "bin" in its package.json).`, 'npm');
    const [binName, binPath] = entries.length === 1 ? entries[0] : (entries.find(([key]) => key === unscoped) ?? entries[0]);
    // As npm reads it (npm-normalize-package-bin): clamped at the package root, so "../dist/x.js"
    // (@github/copilot-language-server) is the package's own dist/x.js and no path can leave it.
    const checked = checkEntryPath(posix.join('/', binPath.replace(/\\/g, '/')).slice(1));
    if ('error' in checked) throw new InstallError(`The npm package ${name} names an unsafe executable "${binPath}".`, 'unsafe');
    const script = join('node_modules', ...name.split('/'), ...checked.path.split('/'));
    if (isNodeScript(join(payload, script))) return { type: 'node', script: script.split(sep).join('/'), node };
    const shim = join('node_modules', '.bin', (this.options.platform ?? process.platform) === 'win32' ? `${binName}.cmd` : binName);
    return { type: 'bin', path: shim.split(sep).join('/') };
  }

  /** The app's own downloaded Node.js, when it satisfies `range`. */
  private async managedNodeFor(range: string): Promise<{ node: string; version: string } | null> {
    for (const dir of managedNodeDirs(this.options.dataDir, this.platform)) {
      const node = findOnPath('node', { PATH: dir, PATHEXT: this.env.PATHEXT });
      if (!node) continue;
      // A managed Node.js that does not run is skipped: the next one (or a download) is used.
      const result = await runTool(node, ['--version'], { timeoutMs: 10_000 }).catch((error: unknown) => void logWarn(`Running ${node} --version`, error));
      const version = semver().clean(result?.stdout.trim() ?? '');
      if (version && semver().satisfies(version, range)) return { node, version };
    }
    return null;
  }

  private async installUvx(agent: RegistryAgent, spec: string, operation: Operation): Promise<RunSpec> {
    this.report(operation, { phase: 'resolving', message: 'Looking for uv…' });
    const runtime = await this.detectUv();
    if (!runtime.ok) throw new InstallError(runtime.message ?? 'uv is needed.', 'runtime');
    // uvx keeps its own cache of the package; the first start downloads it.
    void agent;
    return { type: 'uvx', package: spec, uvx: runtime.uvx ?? undefined };
  }
}

/** Whether a file is a JavaScript program Node.js should run (by extension or `#!…node`). */
function isNodeScript(file: string): boolean {
  if (/\.(c|m)?js$/i.test(file)) return true;
  try {
    const fd = openSync(file, 'r');
    const head = Buffer.alloc(200);
    try {
      readSync(fd, head, 0, 200, 0);
    } finally {
      closeSync(fd);
    }
    return /^#!.*\bnode\b/.test(head.toString('utf8'));
  } catch {
    return false;
  }
}

/** Whether the registry's version is newer than the installed one (semver; plain string compare as last resort). */
export function isNewer(available: string, installed: string): boolean {
  const a = semver().parse(available) ?? semver().coerce(available);
  const b = semver().parse(installed) ?? semver().coerce(installed);
  if (a && b) return semver().gt(a, b);
  return available !== installed && available.localeCompare(installed, undefined, { numeric: true }) > 0;
}
