import { describe, expect, it } from 'vitest';
import { createRedactor } from './redact';
import { decodeTraffic, filterRows, MAX_ROW_TEXT, pairRows, toJsonl, type TrafficRow } from './traffic';

const redactor = createRedactor(['top-secret-value']);
let seq = 0;
const row = (dir: 'in' | 'out', message: unknown, t = 1000 + seq * 10) =>
  decodeTraffic({ seq: ++seq, t, dir, line: typeof message === 'string' ? message : JSON.stringify(message) }, redactor);

describe('decodeTraffic', () => {
  it('classifies requests, notifications, answers and errors, with their session', () => {
    seq = 0;
    const request = row('out', { jsonrpc: '2.0', id: 1, method: 'session/prompt', params: { sessionId: 's1', prompt: [] } });
    const note = row('in', { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: {} } });
    const answer = row('in', { jsonrpc: '2.0', id: 1, result: { stopReason: 'end_turn' } });
    const error = row('in', { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'boom' } });
    const garbage = row('in', 'not json top-secret-value');
    expect([request.kind, note.kind, answer.kind, error.kind, garbage.kind]).toEqual(['request', 'notification', 'response', 'error', 'invalid']);
    expect(request).toMatchObject({ method: 'session/prompt', id: 1, sessionId: 's1', dir: 'out' });
    expect(error.error).toEqual({ code: -32603, message: 'boom' });
    expect(garbage.text).not.toContain('top-secret-value');
  });

  it('cuts a huge message and says so', () => {
    const big = row('in', { jsonrpc: '2.0', method: 'x', params: { text: 'a'.repeat(MAX_ROW_TEXT + 10) } });
    expect(big.truncated).toBe(true);
    expect(big.text.length).toBe(MAX_ROW_TEXT);
  });
});

describe('pairRows and filterRows', () => {
  const rows = (): TrafficRow[] => {
    seq = 0;
    return [
      row('out', { jsonrpc: '2.0', id: 1, method: 'session/prompt', params: { sessionId: 's1' } }, 1000),
      row('in', { jsonrpc: '2.0', id: 1, method: 'session/request_permission', params: { sessionId: 's1' } }, 1100),
      row('out', { jsonrpc: '2.0', id: 1, result: { outcome: { outcome: 'selected', optionId: 'allow' } } }, 1400),
      row('in', { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's2', update: { text: 'Hello' } } }, 1500),
      row('in', { jsonrpc: '2.0', id: 1, result: { stopReason: 'end_turn' } }, 2000),
    ];
  };

  it("pairs each request with its answer by sender and id (the app's id 1 and the agent's id 1 differ), with the latency", () => {
    const pairs = pairRows(rows());
    expect(pairs.get(1)).toEqual({ partner: 5, latencyMs: 1000 });
    expect(pairs.get(5)).toEqual({ partner: 1, latencyMs: 1000, method: 'session/prompt' });
    expect(pairs.get(3)).toEqual({ partner: 2, latencyMs: 300, method: 'session/request_permission' });
  });

  it('filters by direction, method (answers by the method they answer), session, text, errors and time', () => {
    const all = rows();
    const seqs = (filter: Parameters<typeof filterRows>[1]) => filterRows(all, filter).map((r) => r.seq);
    expect(seqs({ dir: 'out' })).toEqual([1, 3]);
    expect(seqs({ method: 'permission' })).toEqual([2, 3]);
    expect(seqs({ sessionIds: ['s1'] })).toEqual([1, 2, 3, 5]);
    expect(seqs({ text: 'hello' })).toEqual([4]);
    expect(seqs({ errorsOnly: true })).toEqual([]);
    expect(seqs({ until: 1400 })).toEqual([1, 2, 3]);
  });

  it('exports rows as JSON Lines that parse back to the messages', () => {
    const lines = toJsonl(rows()).trim().split('\n');
    expect(lines).toHaveLength(5);
    const first = JSON.parse(lines[0]) as { dir: string; msg: { method: string } };
    expect(first.dir).toBe('client→agent');
    expect(first.msg.method).toBe('session/prompt');
  });
});
