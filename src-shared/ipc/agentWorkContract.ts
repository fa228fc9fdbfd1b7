import { z } from 'zod';
import { request } from './define';

/**
 * Cancelling work the agent owns (its terminals, one tool call), offered only where the agent
 * advertises `capabilities.cancel` on that terminal or tool call. Spread into `contract.ts`.
 */
const id = z.string().min(1).max(200);

export const agentWorkRequests = {
  'terminal.cancel': request<{ ok: true }>()(
    z.object({ sessionId: id, terminalId: id }).strict(),
    'Stop a terminal the agent runs (only when it advertises cancel).',
  ),
  'tool.cancel': request<{ ok: true }>()(z.object({ sessionId: id, toolCallId: id }).strict(), 'Cancel one tool call (only when it advertises cancel).'),
};
