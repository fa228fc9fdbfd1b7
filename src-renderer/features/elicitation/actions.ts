import { bridge } from '../../bridge';
import { run } from '../../store';
import type { ElicitationContent } from '../../../src-shared/session/controls';

export type ElicitationAction = 'accept' | 'decline' | 'cancel';

export const answerElicitation = (sessionId: string, requestId: string, action: ElicitationAction, content?: ElicitationContent) =>
  void run(bridge.request('elicitation.respond', { sessionId, requestId, action, ...(content ? { content } : {}) }));
