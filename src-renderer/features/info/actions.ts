import { bridge } from '../../bridge';
import { run } from '../../store';

/** The last lines the agent process wrote to stderr. */
export const readAgentStderr = (agentId: string) => run(bridge.request('agent.stderr', { agentId }));
/** The agent's `logout`, and forgetting stored sign-in values. */
export const signOutOfAgent = (agentId: string) => run(bridge.request('agent.logout', { agentId }));
