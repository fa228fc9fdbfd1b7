import { join } from 'node:path';
import type { Catalog, CatalogAgent, InstalledInfo, RuntimeInfo } from '../../src-shared/ipc/registryContract';
import { distributionKinds, parsePackageSpec, resolveDistributions, type DistributionKind, type RegistryAgent } from '../../src-shared/registry/schema';
import type { AppNotice } from '../../src-shared/ipc/appState';
import type { EventPayload } from '../../src-shared/ipc/contract';
import { protocolFor, type Settings } from '../../src-shared/settings';
import type { AgentDefinition } from '../agents/agentManager';
import { InstallError } from '../install/download';
import { Installer, isNewer, type InstalledAgent } from '../install/installer';
import { canDownloadRuntime, type RuntimeName } from '../install/runtimeInstaller';
import { logged, logWarn } from '../log/mainLog';
import { writeAgentEnv, type SecretStore } from '../store/secretStore';
import { RegistryClient, registryUrl } from './registryClient';

export interface RegistryServiceOptions {
  /** Environment for the registry URL override, runtime detection, npm and uvx. */
  env?: NodeJS.ProcessEnv;
  bundledDir?: string;
  fetch?: typeof fetch;
  probeTimeoutMs?: number;
}

/** What the registry needs from the rest of the app, as functions (it never sees the core). */
export interface RegistryServiceDeps {
  dataDir: string;
  settings: () => Settings;
  publishCatalog: (catalog: Catalog) => void;
  progress: (progress: EventPayload<'install.progress'>) => void;
  /** The app state changed (the agent list, an agent's busy flag). */
  changed: () => void;
  notice: (level: AppNotice['level'], message: string) => void;
  /** Whether the agent's process is running (an update then needs a restart). */
  agentRunning: (agentId: string) => boolean;
  stopAgent: (agentId: string) => Promise<void>;
  /** Where its sign-in values are stored (forgotten on uninstall). */
  secrets: SecretStore;
  /** Sessions of this agent become usable / read-only. */
  agentInstalled: (agentId: string) => void;
  agentUninstalled: (agentId: string) => void;
}

const RUNTIME_TTL_MS = 30_000;

/**
 * The registry catalog and the installer: installed registry agents join the app's agent list
 * (sidebar, sessions), and every change is pushed to the renderer as `registry.catalog`,
 * `install.progress` and `app.state`.
 */
export class RegistryService {
  readonly client: RegistryClient;
  readonly installer: Installer;
  private runtimeCache: { at: number; value: Promise<{ node: Omit<RuntimeInfo, 'busy'>; uv: Omit<RuntimeInfo, 'busy'> }> } | null = null;
  private readonly env: NodeJS.ProcessEnv;

  constructor(
    private readonly deps: RegistryServiceDeps,
    options: RegistryServiceOptions = {},
  ) {
    this.env = options.env ?? process.env;
    this.client = new RegistryClient({
      dataDir: deps.dataDir,
      url: () => registryUrl(deps.settings().registryUrl, this.env),
      bundledDir: options.bundledDir,
      fetch: options.fetch,
    });
    this.client.onIconsChanged = () => {
      deps.changed();
      void this.publish().catch(logged('Publishing the registry catalog'));
    };
    this.installer = new Installer({
      dataDir: deps.dataDir,
      env: this.env,
      fetch: options.fetch,
      probeTimeoutMs: options.probeTimeoutMs,
      protocol: (agentId) => protocolFor(deps.settings(), agentId),
      onProgress: deps.progress,
    });
    try {
      this.installer.cleanup();
    } catch (error) {
      logWarn('Removing leftovers of interrupted installs (retried on the next start)', error);
    }
  }

  /** Installed registry agents as the app's agent list wants them. */
  definitions(): AgentDefinition[] {
    const overrides = this.deps.settings().agentOverrides;
    return this.installer.list().map((installed) => ({
      id: installed.manifest.agentId,
      name: installed.manifest.name,
      source: 'registry',
      description: installed.manifest.description,
      version: installed.manifest.version,
      icon: this.client.icon(installed.manifest.agentId),
      launch: this.installer.launchSpec(installed, overrides[installed.manifest.agentId]),
    }));
  }

  private async runtimes(fresh = false): Promise<{ node: RuntimeInfo; uv: RuntimeInfo }> {
    if (fresh || !this.runtimeCache || Date.now() - this.runtimeCache.at > RUNTIME_TTL_MS) {
      const value = Promise.all([this.installer.detectNode(), this.installer.detectUv()]).then(([node, uv]) => ({
        node: { ok: node.ok, version: node.version, message: node.message, canDownload: canDownloadRuntime('node', process.platform, process.arch) },
        uv: { ok: uv.ok, version: uv.version, message: uv.message, canDownload: canDownloadRuntime('uv', process.platform, process.arch) },
      }));
      this.runtimeCache = { at: Date.now(), value };
    }
    const { node, uv } = await this.runtimeCache.value;
    return { node: { ...node, busy: this.installer.busy('@node') }, uv: { ...uv, busy: this.installer.busy('@uv') } };
  }

  /** Downloads the official Node.js or uv into the app's folder; the catalog then finds it. */
  async installRuntime(name: RuntimeName): Promise<{ version: string | null }> {
    const pending = this.installer.installRuntime(name);
    void this.publish().catch(logged('Publishing the registry catalog'));
    try {
      return await pending;
    } finally {
      await this.runtimes(true);
      void this.publish().catch(logged('Publishing the registry catalog'));
    }
  }

  /** The catalog as it stands; the first call of a run also asks the network in the background. */
  async list(): Promise<Catalog> {
    if (!this.client.refreshedThisRun) void this.refresh().catch(logged('Refreshing the registry in the background', 'warn'));
    return this.catalog();
  }

  async refresh(): Promise<Catalog> {
    await this.client.refresh();
    await this.runtimes(true);
    this.deps.changed();
    return this.publish();
  }

  private async publish(): Promise<Catalog> {
    const catalog = await this.catalog();
    this.deps.publishCatalog(catalog);
    return catalog;
  }

  async catalog(): Promise<Catalog> {
    const runtimes = await this.runtimes();
    // Read after the await: a refresh that finished meanwhile must not be answered with the older snapshot.
    const snapshot = this.client.current();
    const installed = new Map(this.installer.list().map((agent) => [agent.manifest.agentId, agent]));
    const agents: CatalogAgent[] = snapshot.index.agents.map((agent) => this.describe(agent, installed.get(agent.id) ?? null, true));
    // Installed agents that left the registry stay visible, so they can still be uninstalled.
    for (const [id, agent] of installed)
      if (!snapshot.index.agents.some((entry) => entry.id === id)) agents.push(this.describe(agent.manifest.entry, agent, false));
    return {
      source: snapshot.source,
      fetchedAt: snapshot.fetchedAt,
      checkedAt: snapshot.checkedAt,
      url: snapshot.url,
      error: snapshot.error,
      warnings: snapshot.warnings,
      target: this.installer.target,
      runtimes,
      agentsDir: join(this.deps.dataDir, 'agents'),
      agents,
    };
  }

  private describe(agent: RegistryAgent, installed: InstalledAgent | null, inRegistry: boolean): CatalogAgent {
    const installable = resolveDistributions(agent, this.installer.target).map((distribution) => distribution.kind);
    const info: InstalledInfo | null = installed
      ? {
          version: installed.manifest.version,
          ...packageVersion(installed),
          distribution: installed.manifest.distribution,
          installedAt: installed.manifest.installedAt,
          path: installed.dir,
        }
      : null;
    return {
      id: agent.id,
      name: agent.name,
      version: agent.version,
      description: agent.description,
      repository: agent.repository && /^https?:\/\//i.test(agent.repository) ? agent.repository : undefined,
      authors: agent.authors ?? [],
      license: agent.license,
      icon: this.client.icon(agent.id),
      distributions: distributionKinds(agent),
      installableDistributions: installable,
      availableForPlatform: installable.length > 0,
      inRegistry,
      installed: info,
      updateAvailable: Boolean(info && inRegistry && isNewer(agent.version, info.version)),
      busy: this.installer.busy(agent.id),
      lastError: this.installer.lastError(agent.id),
      lastErrorReason: this.installer.lastErrorReason(agent.id),
    };
  }

  private entry(agentId: string): RegistryAgent {
    const agent = this.client.current().index.agents.find((entry) => entry.id === agentId);
    if (!agent) throw new InstallError(`"${agentId}" is not in the registry.`);
    return agent;
  }

  private async run<T>(agentId: string, work: () => Promise<T>): Promise<T> {
    const pending = work();
    // The catalog shows the operation as busy from its first progress event on.
    void this.publish().catch(logged('Publishing the registry catalog'));
    try {
      return await pending;
    } finally {
      this.deps.changed();
      void this.publish().catch(logged('Publishing the registry catalog'));
    }
  }

  async install(agentId: string, distribution?: DistributionKind, ignoreEngines?: boolean): Promise<{ version: string }> {
    const agent = this.entry(agentId);
    if (this.deps.settings().agents.some((custom) => custom.id === agentId)) {
      throw new InstallError(`A custom agent in settings.json already uses the id "${agentId}"; rename it first.`);
    }
    const installed = await this.run(agentId, () => this.installer.install(agent, distribution, { ignoreEngines }));
    this.deps.agentInstalled(agentId);
    return { version: installed.manifest.version };
  }

  async update(agentId: string): Promise<{ version: string }> {
    const agent = this.entry(agentId);
    const installed = await this.run(agentId, () => this.installer.update(agent));
    if (this.deps.agentRunning(agentId)) {
      this.deps.notice('info', `${agent.name} was updated to ${installed.manifest.version}; restart the agent to use the new version.`);
    }
    return { version: installed.manifest.version };
  }

  /** Stops the agent, removes its files and forgets its stored sign-in values (the secret store). */
  async uninstall(agentId: string): Promise<{ ok: true }> {
    await this.deps.stopAgent(agentId);
    await this.run(agentId, () => this.installer.uninstall(agentId));
    this.deps.agentUninstalled(agentId);
    writeAgentEnv(this.deps.secrets, agentId, {});
    return { ok: true };
  }

  cancel(agentId: string): { ok: true } {
    if (!this.installer.cancel(agentId)) throw new InstallError(`Nothing is being installed for "${agentId}".`);
    return { ok: true };
  }
}

/** The npm version installed when npm had to take another than the catalog's (`source` is `name@version`). */
function packageVersion(installed: InstalledAgent): { packageVersion?: string } {
  if (installed.manifest.distribution !== 'npx') return {};
  const version = parsePackageSpec(installed.manifest.source).version;
  return version && version !== installed.manifest.version ? { packageVersion: version } : {};
}
