import { bridge } from '../../bridge';

/**
 * Signs in with one of the agent's methods; env-var methods carry the values the person typed.
 * It rejects with the agent's reason: the sign-in panel shows it in place (not as a global alert).
 */
export const startSignIn = (sessionId: string, methodId: string, env?: Record<string, string>) =>
  bridge.request('auth.start', { sessionId, methodId, ...(env ? { env } : {}) });
