import type { AgentWorkRequest } from '../../../src-shared/ipc/agentWorkContract';
import { bridge } from '../../bridge';
import { run } from '../../store';

/** The rows of agentWorkContract.ts are not in the contract table yet: called by name. */
const call = bridge.request as unknown as (name: AgentWorkRequest, payload: Record<string, string>) => Promise<unknown>;

export function cancelAgentTerminal(sessionId: string, terminalId: string): Promise<unknown> {
  return run(call('terminal.cancel', { sessionId, terminalId }));
}

export function cancelToolCall(sessionId: string, toolCallId: string): Promise<unknown> {
  return run(call('toolCall.cancel', { sessionId, toolCallId }));
}
