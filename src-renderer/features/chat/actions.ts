import { bridge } from '../../bridge';
import { run } from '../../store';

export const restartAgent = (agentId: string) => void run(bridge.request('agent.restart', { agentId }));
