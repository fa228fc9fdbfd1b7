import { bridge } from '../../bridge';
import { run } from '../../store';

export type ElicitationAction = 'accept' | 'decline' | 'cancel';

export const answerElicitation = (sessionId: string, requestId: string, action: ElicitationAction, content?: Record<string, unknown>) =>
  void run(bridge.request('elicitation.respond', { sessionId, requestId, action, ...(content ? { content } : {}) }));
