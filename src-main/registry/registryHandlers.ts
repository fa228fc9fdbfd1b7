import type { Handlers } from '../../src-shared/ipc/contract';
import type { registryRequests } from '../../src-shared/ipc/registryContract';
import type { AppCore } from '../core/appCore';
import { RegistryService, type RegistryServiceOptions } from './registryService';

const services = new WeakMap<AppCore, RegistryService>();

/**
 * Attaches the registry and the installer to a core: installed registry agents join its agent
 * list. Called once from the core's constructor; options come from the environment
 * (`ACP_DESKTOP_REGISTRY_URL`, npm's own `npm_config_*`).
 */
export function attachRegistry(core: AppCore, options: RegistryServiceOptions = {}): RegistryService {
  let service = services.get(core);
  if (!service) {
    service = new RegistryService(core, options);
    services.set(core, service);
    const attached = service;
    core.extend({ agents: () => attached.definitions(), busy: () => attached.installer.activeOperations() });
  }
  return service;
}

/** The registry service of a core (attached on first use). */
export function registryService(core: AppCore): RegistryService {
  return services.get(core) ?? attachRegistry(core);
}

type RegistryHandlers = Pick<Handlers, keyof typeof registryRequests>;

/**
 * The registry's rows of the handler table, spread into `AppCore.handlers`. They look the
 * service up lazily because the handler table is built before the core's constructor body.
 */
export function registryHandlers(core: AppCore): RegistryHandlers {
  return {
    'registry.list': () => registryService(core).list(),
    'registry.refresh': () => registryService(core).refresh(),
    'agent.install': ({ agentId, distribution, ignoreEngines }) => registryService(core).install(agentId, distribution, ignoreEngines),
    'agent.cancelInstall': async ({ agentId }) => registryService(core).cancel(agentId),
    'agent.update': ({ agentId }) => registryService(core).update(agentId),
    'agent.uninstall': ({ agentId }) => registryService(core).uninstall(agentId),
    'runtime.install': ({ runtime }) => registryService(core).installRuntime(runtime),
  };
}
