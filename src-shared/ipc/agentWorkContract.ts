import { z } from 'zod';
import { request } from './define';

/**
 * Cancelling work the agent owns (ACP v2 `terminal/cancel`, `tool_call/cancel`), offered only
 * where the agent advertises `capabilities.cancel`. Ready to spread into `contract.ts` once the
 * session layer serves them (docs/ARCHITECTURE.md, "Protocol versions"); until then the renderer's calls are
 * answered "unknown request".
 */
const id = z.string().min(1).max(200);

export const agentWorkRequests = {
  'terminal.cancel': request<{ ok: true }>()(
    z.object({ sessionId: id, terminalId: id }).strict(),
    'Stop a terminal the agent runs (only when it advertises cancel).',
  ),
  'toolCall.cancel': request<{ ok: true }>()(z.object({ sessionId: id, toolCallId: id }).strict(), 'Cancel one tool call (only when it advertises cancel).'),
};

export type AgentWorkRequest = keyof typeof agentWorkRequests;
