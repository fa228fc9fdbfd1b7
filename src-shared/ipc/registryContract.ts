import { z } from 'zod';
import { agentIdSchema } from '../registry/schema';
import { event, request } from './define';

/**
 * The registry catalog and the installer's part of the IPC contract. Merged into
 * `contract.ts` with a spread, so it is still one table.
 */

/** Where the catalog's data came from: fetched (or confirmed with a 304) in this run, the disk cache, or the snapshot shipped with the app. */
export type RegistrySource = 'live' | 'cache' | 'bundled';

/** What is installed of an agent (from its install manifest on disk). */
export interface InstalledInfo {
  /** The catalog's version it was installed as (what updates compare). */
  version: string;
  /** The npm package version installed, when it is not `version`: the catalog's pin is no longer on npm. */
  packageVersion?: string;
  distribution: 'binary' | 'npx' | 'uvx';
  /** ISO time of the install. */
  installedAt: string;
  /** The folder the agent lives in. */
  path: string;
}

/** A runtime that `npx` or `uvx` agents need, as found on this machine. */
export interface RuntimeInfo {
  /** Whether installs and starts of this kind can work. */
  ok: boolean;
  version: string | null;
  /** Why not, and what to do, when `ok` is false. */
  message: string | null;
  /** Whether the app can download the official build into its own folder (`runtime.install`). */
  canDownload: boolean;
  /** A download of it running now (progress events use the id `@node` / `@uv`). */
  busy: InstallProgress | null;
}

/** One agent as the catalog shows it. */
export interface CatalogAgent {
  id: string;
  name: string;
  /** The registry's version (or the installed one, for an agent that left the registry). */
  version: string;
  description: string;
  repository?: string;
  authors: string[];
  license?: string;
  /** Sanitized SVG markup, or undefined for the letter fallback. */
  icon?: string;
  /** Every distribution kind the entry lists (unknown kinds included). */
  distributions: string[];
  /** The kinds that can install on this machine's platform target, best first. */
  installableDistributions: ('binary' | 'npx' | 'uvx')[];
  availableForPlatform: boolean;
  /** Whether the agent is still listed in the registry (an installed one may have left it). */
  inRegistry: boolean;
  installed: InstalledInfo | null;
  updateAvailable: boolean;
  /** The install, update or uninstall running now, if any. */
  busy: InstallProgress | null;
  /** The last install/update failure for this agent, until the next attempt. */
  lastError: string | null;
  /** Why it failed: `engines` (its Node.js requirement) can be installed past ("Install anyway"). */
  lastErrorReason?: string | null;
}

export interface Catalog {
  source: RegistrySource;
  /** ISO time the shown index was downloaded (for `bundled`: when the snapshot was taken). */
  fetchedAt: string | null;
  /** ISO time the network was last asked (a 304 refreshes this, not `fetchedAt`). */
  checkedAt: string | null;
  url: string;
  /** Why the live index is not shown (offline, HTTP status, malformed), or null. */
  error: string | null;
  /** Entries that were skipped because they are malformed. */
  warnings: string[];
  /** This machine's registry target, e.g. `linux-x86_64` (null: the registry has no builds for it). */
  target: string | null;
  runtimes: { node: RuntimeInfo; uv: RuntimeInfo };
  /** Where agents are installed (`<data>/agents`). */
  agentsDir: string;
  agents: CatalogAgent[];
}

export type InstallPhase = 'resolving' | 'downloading' | 'extracting' | 'installing' | 'verifying' | 'uninstalling' | 'done' | 'failed' | 'cancelled';

/** Progress of an install, update or uninstall. `total` is null when the server did not say. */
export interface InstallProgress {
  agentId: string;
  action: 'install' | 'update' | 'uninstall';
  phase: InstallPhase;
  bytes: number;
  total: number | null;
  bytesPerSecond: number;
  message: string;
}

const distribution = z.enum(['binary', 'npx', 'uvx']);

/** Progress and cancel ids of the runtime downloads, beside agent ids. */
export const RUNTIME_IDS = { node: '@node', uv: '@uv' } as const;

export const registryRequests = {
  'registry.list': request<Catalog>()(
    z.object({}).strict(),
    'The agent catalog (starts a background refresh the first time; the result arrives as registry.catalog).',
  ),
  'registry.refresh': request<Catalog>()(z.object({}).strict(), 'Ask the registry for a newer index now (conditional request).'),
  'agent.install': request<{ version: string }>()(
    z.object({ agentId: agentIdSchema, distribution: distribution.optional(), ignoreEngines: z.boolean().optional() }).strict(),
    'Install a registry agent for this platform (progress arrives as install.progress).',
  ),
  'agent.cancelInstall': request<{ ok: true }>()(
    z.object({ agentId: z.union([agentIdSchema, z.enum([RUNTIME_IDS.node, RUNTIME_IDS.uv])]) }).strict(),
    'Cancel a running install or update (or a runtime download: @node, @uv); nothing half-installed is left.',
  ),
  'runtime.install': request<{ version: string | null }>()(
    z.object({ runtime: z.enum(['node', 'uv']) }).strict(),
    "Download the official Node.js (LTS) or uv into the app's folder, for npx / uvx agents.",
  ),
  'agent.update': request<{ version: string }>()(
    z.object({ agentId: agentIdSchema }).strict(),
    'Install the registry version beside the old one and switch once it answers initialize.',
  ),
  'agent.uninstall': request<{ ok: true }>()(z.object({ agentId: agentIdSchema }).strict(), 'Stop a registry agent and remove its files and saved secrets.'),
} as const;

export const registryEvents = {
  'registry.catalog': event<Catalog>('The catalog changed (refreshed, installed, updated, uninstalled).'),
  'install.progress': event<InstallProgress>('Progress of an install, update or uninstall.'),
} as const;
