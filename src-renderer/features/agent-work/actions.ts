import { bridge } from '../../bridge';
import { run } from '../../store';

export function cancelAgentTerminal(sessionId: string, terminalId: string): Promise<unknown> {
  return run(bridge.request('terminal.cancel', { sessionId, terminalId }));
}

export function cancelToolCall(sessionId: string, toolCallId: string): Promise<unknown> {
  return run(bridge.request('tool.cancel', { sessionId, toolCallId }));
}
