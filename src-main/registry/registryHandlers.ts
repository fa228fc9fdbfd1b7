import type { Handlers } from '../../src-shared/ipc/contract';
import type { registryRequests } from '../../src-shared/ipc/registryContract';
import type { RegistryService } from './registryService';

/** The registry's rows of the handler table: the catalog, installs, updates, runtimes. */
export function registryHandlers(registry: RegistryService): Pick<Handlers, keyof typeof registryRequests> {
  return {
    'registry.list': () => registry.list(),
    'registry.refresh': () => registry.refresh(),
    'agent.install': ({ agentId, distribution, ignoreEngines }) => registry.install(agentId, distribution, ignoreEngines),
    'agent.cancelInstall': async ({ agentId }) => registry.cancel(agentId),
    'agent.update': ({ agentId }) => registry.update(agentId),
    'agent.uninstall': ({ agentId }) => registry.uninstall(agentId),
    'runtime.install': ({ runtime }) => registry.installRuntime(runtime),
  };
}
