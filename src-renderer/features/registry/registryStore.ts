import { create } from 'zustand';
import type { Catalog, InstallProgress } from '../../../src-shared/ipc/registryContract';
import { bridge } from '../../bridge';
import type { CatalogFilter } from './format';

/**
 * The catalog's own slice: the last catalog main sent, live progress per agent, the filter,
 * and which confirmation is open. Intents go to main as contract requests; results come back
 * as `registry.catalog` and `install.progress` events.
 */
export interface RegistryStore {
  isOpen: boolean;
  /** An agent to scroll to and highlight (a deep link asked for it). */
  focusAgentId: string | null;
  catalog: Catalog | null;
  isRefreshing: boolean;
  /** A request that failed outside any agent (list, refresh). */
  error: string | null;
  progress: Record<string, InstallProgress>;
  /** Errors of install/update/uninstall requests, by agent, until the next attempt. */
  errors: Record<string, string>;
  filter: CatalogFilter;
  confirmUninstall: string | null;
  setFilter(patch: Partial<CatalogFilter>): void;
  setConfirmUninstall(agentId: string | null): void;
}

export const useRegistryStore = create<RegistryStore>()((set) => ({
  isOpen: false,
  focusAgentId: null,
  catalog: null,
  isRefreshing: false,
  error: null,
  progress: {},
  errors: {},
  filter: { query: '', show: 'all', distribution: 'any' },
  confirmUninstall: null,
  setFilter: (patch) => set((s) => ({ filter: { ...s.filter, ...patch } })),
  setConfirmUninstall: (agentId) => set({ confirmUninstall: agentId }),
}));

let subscribed = false;

/** Listens to main's registry events (once per window). */
export function subscribeRegistry(): void {
  if (subscribed) return;
  subscribed = true;
  bridge.on('registry.catalog', (catalog) => useRegistryStore.setState({ catalog }));
  bridge.on('install.progress', (progress) =>
    useRegistryStore.setState((s) => ({ progress: { ...s.progress, [progress.agentId]: progress } })),
  );
}

function message(error: unknown): string {
  return (error as Error)?.message ?? String(error);
}

export async function loadCatalog(): Promise<void> {
  subscribeRegistry();
  try {
    const catalog = await bridge.request('registry.list', {});
    useRegistryStore.setState({ catalog, error: null });
  } catch (error) {
    useRegistryStore.setState({ error: message(error) });
  }
}

export async function refreshCatalog(): Promise<void> {
  useRegistryStore.setState({ isRefreshing: true });
  try {
    const catalog = await bridge.request('registry.refresh', {});
    useRegistryStore.setState({ catalog, error: null });
  } catch (error) {
    useRegistryStore.setState({ error: message(error) });
  } finally {
    useRegistryStore.setState({ isRefreshing: false });
  }
}

export function openCatalog(focusAgentId: string | null = null): void {
  useRegistryStore.setState({ isOpen: true, focusAgentId });
  void loadCatalog();
}

export function closeCatalog(): void {
  useRegistryStore.setState({ isOpen: false, focusAgentId: null, confirmUninstall: null });
}

type Action = 'agent.install' | 'agent.update' | 'agent.uninstall';

async function act(agentId: string, action: Action, input: { agentId: string; distribution?: 'binary' | 'npx' | 'uvx' }): Promise<boolean> {
  useRegistryStore.setState((s) => {
    const errors = { ...s.errors };
    delete errors[agentId];
    return { errors };
  });
  try {
    await bridge.request(action, input as never);
    return true;
  } catch (error) {
    const text = message(error);
    // A cancel is not an error to keep on screen: the progress line already says so.
    if (!/cancelled/i.test(text)) useRegistryStore.setState((s) => ({ errors: { ...s.errors, [agentId]: text } }));
    return false;
  } finally {
    void loadCatalog();
  }
}

export const installAgent = (agentId: string, distribution?: 'binary' | 'npx' | 'uvx', ignoreEngines?: boolean) =>
  act(agentId, 'agent.install', { agentId, distribution, ...(ignoreEngines ? { ignoreEngines } : {}) });
export const updateAgent = (agentId: string) => act(agentId, 'agent.update', { agentId });
export const uninstallAgent = (agentId: string) => {
  useRegistryStore.setState({ confirmUninstall: null });
  return act(agentId, 'agent.uninstall', { agentId });
};

export async function cancelInstall(agentId: string): Promise<void> {
  try {
    await bridge.request('agent.cancelInstall', { agentId: agentId as never });
  } catch (error) {
    useRegistryStore.setState((s) => ({ errors: { ...s.errors, [agentId]: message(error) } }));
  }
}

/** Downloads the official Node.js or uv into the app's folder; progress arrives under `@node` / `@uv`. */
export async function installRuntime(runtime: 'node' | 'uv'): Promise<void> {
  const id = `@${runtime}`;
  useRegistryStore.setState((s) => {
    const errors = { ...s.errors };
    delete errors[id];
    return { errors };
  });
  try {
    await bridge.request('runtime.install', { runtime });
  } catch (error) {
    const text = message(error);
    if (!/cancelled/i.test(text)) useRegistryStore.setState((s) => ({ errors: { ...s.errors, [id]: text } }));
  } finally {
    void loadCatalog();
  }
}
