import type { CustomAgent, Settings } from '../../src-shared/settings';
import type { AgentDefinition } from '../agents/agentManager';
import { remoteAgentDefinition } from './remoteAgents';
import type { SecretStore } from '../store/secretStore';

/** A custom agent from settings.json, with its `agentOverrides` entry applied. */
export function customAgentDefinition(agent: CustomAgent, override: Settings['agentOverrides'][string] | undefined, secrets?: SecretStore): AgentDefinition {
  if (agent.url) return remoteAgentDefinition(agent, secrets);
  return {
    id: agent.id,
    name: agent.name,
    source: 'custom',
    description: `${agent.command ?? ''} ${agent.args.join(' ')}`.trim(),
    launch: {
      command: override?.command ?? agent.command ?? '',
      args: [...agent.args, ...(override?.args ?? [])],
      env: { ...agent.env, ...override?.env },
    },
  };
}

/** Every agent the app knows: custom agents first; an installed agent with a custom agent's id is hidden. */
export function agentDefinitions(settings: Settings, installed: AgentDefinition[], secrets?: SecretStore): AgentDefinition[] {
  const custom = settings.agents.map((agent) => customAgentDefinition(agent, settings.agentOverrides[agent.id], secrets));
  const seen = new Set(custom.map((agent) => agent.id));
  return [...custom, ...installed.filter((agent) => !seen.has(agent.id))];
}
