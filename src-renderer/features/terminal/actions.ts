import { bridge } from '../../bridge';
import { run } from '../../store';

export const typeIntoTerminal = (sessionId: string, terminalId: string, data: string) =>
  void run(bridge.request('terminal.input', { sessionId, terminalId, data }));
export const resizeTerminal = (sessionId: string, terminalId: string, cols: number, rows: number) =>
  void run(bridge.request('terminal.resize', { sessionId, terminalId, cols: Math.max(2, cols), rows: Math.max(2, rows) }));
