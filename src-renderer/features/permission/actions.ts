import { bridge } from '../../bridge';
import { run } from '../../store';

export const answerPermission = (sessionId: string, requestId: string, optionId: string) =>
  void run(bridge.request('permission.respond', { sessionId, requestId, optionId }));
