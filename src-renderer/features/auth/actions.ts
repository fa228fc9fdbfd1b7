import { bridge } from '../../bridge';
import { run } from '../../store';

/** Signs in with one of the agent's methods; env-var methods carry the values the person typed. */
export const startSignIn = (sessionId: string, methodId: string, env?: Record<string, string>) =>
  run(bridge.request('auth.start', { sessionId, methodId, ...(env ? { env } : {}) }));
