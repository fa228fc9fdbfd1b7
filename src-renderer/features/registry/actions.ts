import { bridge } from '../../bridge';
import { useStore } from '../../store';

/** The catalog's requests to main; their results land in the store's registry slice. */

function message(error: unknown): string {
  return (error as Error)?.message ?? String(error);
}

export async function loadCatalog(): Promise<void> {
  try {
    const catalog = await bridge.request('registry.list', {});
    useStore.setState({ catalog, catalogError: null });
  } catch (error) {
    useStore.setState({ catalogError: message(error) });
  }
}

export async function refreshCatalog(): Promise<void> {
  useStore.setState({ catalogRefreshing: true });
  try {
    const catalog = await bridge.request('registry.refresh', {});
    useStore.setState({ catalog, catalogError: null });
  } catch (error) {
    useStore.setState({ catalogError: message(error) });
  } finally {
    useStore.setState({ catalogRefreshing: false });
  }
}

export function openCatalog(focusAgentId: string | null = null): void {
  useStore.setState({ catalogOpen: true, catalogFocus: focusAgentId });
  void loadCatalog();
}

export function closeCatalog(): void {
  useStore.setState({ catalogOpen: false, catalogFocus: null, confirmUninstall: null });
}

type Action = 'agent.install' | 'agent.update' | 'agent.uninstall';

async function act(
  agentId: string,
  action: Action,
  input: { agentId: string; distribution?: 'binary' | 'npx' | 'uvx'; ignoreEngines?: boolean },
): Promise<boolean> {
  useStore.getState().setInstallError(agentId, null);
  try {
    await bridge.request(action, input as never);
    return true;
  } catch (error) {
    const text = message(error);
    // A cancel is not an error to keep on screen: the progress line already says so.
    if (!/cancelled/i.test(text)) useStore.getState().setInstallError(agentId, text);
    return false;
  } finally {
    void loadCatalog();
  }
}

export const installAgent = (agentId: string, distribution?: 'binary' | 'npx' | 'uvx', ignoreEngines?: boolean) =>
  act(agentId, 'agent.install', { agentId, distribution, ...(ignoreEngines ? { ignoreEngines } : {}) });
export const updateAgent = (agentId: string) => act(agentId, 'agent.update', { agentId });
export const uninstallAgent = (agentId: string) => {
  useStore.setState({ confirmUninstall: null });
  return act(agentId, 'agent.uninstall', { agentId });
};

export async function cancelInstall(agentId: string): Promise<void> {
  try {
    await bridge.request('agent.cancelInstall', { agentId: agentId as never });
  } catch (error) {
    useStore.getState().setInstallError(agentId, message(error));
  }
}

/** Downloads the official Node.js or uv into the app's folder; progress arrives under `@node` / `@uv`. */
export async function installRuntime(runtime: 'node' | 'uv'): Promise<void> {
  const id = `@${runtime}`;
  useStore.getState().setInstallError(id, null);
  try {
    await bridge.request('runtime.install', { runtime });
  } catch (error) {
    const text = message(error);
    if (!/cancelled/i.test(text)) useStore.getState().setInstallError(id, text);
  } finally {
    void loadCatalog();
  }
}
