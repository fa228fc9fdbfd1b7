import type { Catalog, CatalogAgent, InstallProgress } from '../../../src-shared/ipc/registryContract';
import type { CatalogFilter } from '../../store/types';

/** Pure helpers of the catalog view (tested without a DOM). */

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

/** "just now", "5 minutes ago", "3 hours ago", "2 days ago", then the date. */
export function formatWhen(iso: string | null, now: Date = new Date()): string {
  if (!iso) return 'an unknown time';
  const then = new Date(iso);
  if (Number.isNaN(then.getTime())) return 'an unknown time';
  const seconds = Math.round((now.getTime() - then.getTime()) / 1000);
  if (seconds < 60) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'} ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} hour${hours === 1 ? '' : 's'} ago`;
  const days = Math.round(hours / 24);
  if (days < 14) return `${days} day${days === 1 ? '' : 's'} ago`;
  return `on ${then.toISOString().slice(0, 10)}`;
}

/** One line saying which index the catalog shows and from when. */
export function sourceLabel(catalog: Pick<Catalog, 'source' | 'fetchedAt' | 'checkedAt'>, now: Date = new Date()): string {
  switch (catalog.source) {
    case 'live':
      return `Live registry, downloaded ${formatWhen(catalog.fetchedAt, now)}${catalog.checkedAt && catalog.checkedAt !== catalog.fetchedAt ? `, checked ${formatWhen(catalog.checkedAt, now)}` : ''}`;
    case 'cache':
      return `Cached registry from ${formatWhen(catalog.fetchedAt, now)} (not checked online yet)`;
    case 'bundled':
      return `Registry snapshot bundled with the app (${formatWhen(catalog.fetchedAt, now)})`;
  }
}

/** The text beside a progress bar: phase, bytes of total, speed. */
export function progressText(progress: InstallProgress): string {
  if (progress.phase === 'downloading' && progress.bytes > 0) {
    const amount = progress.total ? `${formatBytes(progress.bytes)} of ${formatBytes(progress.total)}` : formatBytes(progress.bytes);
    return `Downloading ${amount}${progress.bytesPerSecond > 0 ? ` · ${formatBytes(progress.bytesPerSecond)}/s` : ''}`;
  }
  return progress.message;
}

/** Whether a progress state is still running (the last event of an operation is done/failed/cancelled). */
export function isRunning(progress: InstallProgress | null | undefined): boolean {
  return Boolean(progress && !['done', 'failed', 'cancelled'].includes(progress.phase));
}

/** Search (name, id, description, authors) and filters, keeping the registry's order. */
export function filterAgents(agents: readonly CatalogAgent[], filter: CatalogFilter): CatalogAgent[] {
  const words = filter.query.toLowerCase().split(/\s+/).filter(Boolean);
  return agents.filter((agent) => {
    if (filter.show === 'installed' && !agent.installed) return false;
    if (filter.show === 'updates' && !agent.updateAvailable) return false;
    if (filter.show === 'available' && !agent.availableForPlatform) return false;
    if (filter.distribution !== 'any' && !agent.distributions.includes(filter.distribution)) return false;
    if (words.length === 0) return true;
    const haystack = [agent.name, agent.id, agent.description, ...agent.authors, agent.license ?? ''].join(' ').toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

/** Why an agent cannot be installed here, or null. Runtime problems are per distribution kind. */
export function installBlocker(
  agent: CatalogAgent,
  catalog: Pick<Catalog, 'runtimes' | 'target'>,
  kind: CatalogAgent['installableDistributions'][number] | undefined,
): string | null {
  if (!agent.availableForPlatform || !kind) {
    return `Not available for this platform${catalog.target ? ` (${catalog.target})` : ''}.`;
  }
  if (kind === 'npx' && !catalog.runtimes.node.ok) return catalog.runtimes.node.message;
  if (kind === 'uvx' && !catalog.runtimes.uv.ok) return catalog.runtimes.uv.message;
  return null;
}
