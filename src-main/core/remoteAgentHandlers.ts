import type { AgentSummary } from '../../src-shared/ipc/appState';
import type { Handlers } from '../../src-shared/ipc/contract';
import { checkRemoteUrl } from '../../src-shared/remote';
import { isJsonObject } from '../../src-shared/json';
import { UserError } from '../errors/errors';
import type { SecretStore } from '../store/secretStore';
import type { SettingsStore } from '../store/settingsStore';
import { writeAgentHeaders, type RemoteAgents } from './remoteAgents';

/** An agent's summary with its remote view (connection state, machine) when it is remote. */
export function withRemote(agent: AgentSummary, remote: RemoteAgents): AgentSummary {
  const view = remote.view(agent);
  return view ? { ...agent, remote: view } : agent;
}

export interface RemoteHandlerDeps {
  settings: SettingsStore;
  secrets: SecretStore;
  changed(): void;
  /** Stops the reconnect loop of an agent (the person restarts it by hand). */
  forget(agentId: string): void;
  restart: Handlers['agent.restart'];
}

/** The remote agents' rows: adding one, and "Reconnect" (a restart that also ends a reconnect loop). */
export function remoteAgentHandlers(deps: RemoteHandlerDeps): Pick<Handlers, 'agent.addRemote' | 'agent.restart'> {
  return {
    'agent.addRemote': async (input) => {
      const check = checkRemoteUrl(input.url, input.allowInsecure);
      if (!check.ok) throw new UserError(check.error);
      const plain: Record<string, string> = {};
      const secret: Record<string, string> = {};
      for (const header of input.headers) (header.secret ? secret : plain)[header.name] = header.value;
      deps.settings.update((json) => {
        const agents = Array.isArray(json.agents) ? json.agents : [];
        if (agents.some((agent) => isJsonObject(agent) && agent.id === input.id))
          throw new UserError(`An agent with the id "${input.id}" is already in settings.json.`);
        json.agents = [
          ...agents,
          {
            id: input.id,
            name: input.name,
            url: input.url,
            ...(Object.keys(plain).length ? { headers: plain } : {}),
            ...(Object.keys(secret).length ? { secretHeaders: Object.keys(secret) } : {}),
            ...(input.allowInsecure ? { allowInsecure: true } : {}),
            clientFs: input.clientFs,
            clientTerminal: input.clientTerminal,
            ...(input.protocol ? { protocol: input.protocol } : {}),
          },
        ];
      });
      writeAgentHeaders(deps.secrets, input.id, secret);
      deps.changed();
      return { ok: true, warning: check.warning ?? null };
    },
    'agent.restart': async (input) => {
      deps.forget(input.agentId);
      return deps.restart(input);
    },
  };
}
