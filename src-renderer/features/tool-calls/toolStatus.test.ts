import { describe, expect, it } from 'vitest';
import type { TerminalState } from '../../../src-shared/session/state';
import { shownToolStatus } from './toolStatus';

const terminal = (exit: Partial<TerminalState>): Record<string, TerminalState> => ({
  t1: { terminalId: 't1', command: 'sh', args: [], output: '', exited: true, released: false, exitCode: 0, signal: null, ...exit },
});
const call = { status: 'completed', content: [{ type: 'terminal' as const, terminalId: 't1' }] };

describe('the status a tool card shows', () => {
  it('is Failed (with the exit code) when the agent says completed but its terminal exited non-zero', () => {
    expect(shownToolStatus(call, terminal({ exitCode: 1 }))).toEqual({ status: 'failed', exitNote: 'exit code 1' });
    expect(shownToolStatus(call, terminal({ exitCode: 127 }))).toEqual({ status: 'failed', exitNote: 'exit code 127' });
    expect(shownToolStatus(call, terminal({ exitCode: null, signal: 'SIGKILL' }))).toEqual({ status: 'failed', exitNote: 'killed (SIGKILL)' });
  });

  it("is the agent's own status otherwise", () => {
    expect(shownToolStatus(call, terminal({ exitCode: 0 })).status).toBe('completed');
    expect(shownToolStatus(call, terminal({ exited: false, exitCode: null })).status).toBe('completed');
    expect(shownToolStatus({ ...call, status: 'in_progress' }, terminal({ exitCode: 1 })).status).toBe('in_progress');
    expect(shownToolStatus({ status: 'completed', content: [] }, {}).status).toBe('completed');
  });
});
