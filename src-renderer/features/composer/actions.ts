import { bridge } from '../../bridge';
import type { ContentBlock } from '../../../src-shared/session/events';
import { run } from '../../store';

/** Sends (or queues, while a turn runs) a prompt; undefined when it failed (the composer keeps the text). */
export const sendPrompt = (sessionId: string, prompt: ContentBlock[]) => run(bridge.request('session.prompt', { sessionId, prompt }));
export const cancelTurn = (sessionId: string) => void run(bridge.request('session.cancel', { sessionId }));
/** Workspace files whose path matches `query` (for `@`). */
export const searchFiles = (sessionId: string, query: string) => bridge.request('fs.search', { sessionId, query });
