import { bridge } from '../../bridge';
import { run } from '../../store';

/** The last lines the agent process wrote to stderr. */
export const readAgentStderr = (agentId: string) => run(bridge.request('agent.stderr', { agentId }));
/** The agent's `logout`, and forgetting stored sign-in values. */
export const signOutOfAgent = (agentId: string) => run(bridge.request('agent.logout', { agentId }));

/** The main process's log file: its path and last lines. */
export const readMainLog = () => run(bridge.request('log.read', {}));

/** Opens the log file with the system (desktop app only). */
export const openMainLog = () => run(bridge.request('log.open', {}));
