import { describe, expect, it, vi } from 'vitest';
import type { AnyMessage } from '@agentclientprotocol/sdk/unstable';
import { GarbageSummary, guardStdout, refuseOversize } from './rawTap';

/** Feeds chunks through the guard and returns what the SDK would read, plus the reports. */
async function run(chunks: string[], maxBytes: number) {
  const garbage: string[] = [];
  const oversize: number[] = [];
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });
  const out = guardStdout(input, { onGarbage: (line) => garbage.push(line), onOversize: (bytes) => oversize.push(bytes) }, maxBytes);
  let text = '';
  const decoder = new TextDecoder();
  for await (const chunk of out as unknown as AsyncIterable<Uint8Array>) text += decoder.decode(chunk, { stream: true });
  return { text, garbage, oversize };
}

describe('guardStdout', () => {
  it('forwards whole lines unchanged, across chunk boundaries', async () => {
    const { text, garbage, oversize } = await run(['{"a":1}\n{"b"', ':2}\n{"c":3', '}\n'], 100);
    expect(text).toBe('{"a":1}\n{"b":2}\n{"c":3}\n');
    expect(garbage).toEqual([]);
    expect(oversize).toEqual([]);
  });

  it('drops a line over the limit (in one chunk or many) and keeps the lines around it', async () => {
    const long = `{"x":"${'y'.repeat(200)}"}`;
    const one = await run([`{"a":1}\n${long}\n{"b":2}\n`], 100);
    expect(one.text).toBe('{"a":1}\n{"b":2}\n');
    expect(one.oversize).toEqual([long.length]);
    const many = await run(['{"a":1}\n', long.slice(0, 50), long.slice(50, 150), `${long.slice(150)}\n{"b":2}\n`], 100);
    expect(many.text).toBe('{"a":1}\n{"b":2}\n');
    expect(many.oversize).toEqual([long.length]);
    const unterminated = await run(['{"a":1}\n', long], 100);
    expect(unterminated.text).toBe('{"a":1}\n');
    expect(unterminated.oversize).toEqual([long.length]);
  });

  it('reports lines that are not JSON (their start) and keeps them from the SDK', async () => {
    const { text, garbage } = await run(['hello world\n  {"ok":1}\nsecond', ' log line\n[1]\n{"b"', ':2}\ntail'], 100);
    expect(garbage).toEqual(['hello world', 'second log line', '[1]', 'tail']);
    expect(text).toBe('  {"ok":1}\n[1]\n{"b":2}\n');
  });
});

describe('GarbageSummary', () => {
  it('reports the first lines one by one, then one count per interval', () => {
    vi.useFakeTimers();
    try {
      const reports: string[] = [];
      const summary = new GarbageSummary((text) => reports.push(text), 2, 1000);
      for (let i = 0; i < 10_000; i++) summary.add(`line ${i}`);
      expect(reports).toEqual(['line 0', 'line 1']);
      vi.advanceTimersByTime(1000);
      expect(reports).toEqual(['line 0', 'line 1', '9998 more line(s) like this (latest: line 9999)']);
      summary.add('late');
      summary.flush();
      expect(reports.at(-1)).toBe('1 more line(s) like this (latest: late)');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('refuseOversize', () => {
  const big = 'z'.repeat(2000);
  it('answers our own oversized request to us with an error that says why', () => {
    const refused = refuseOversize({ jsonrpc: '2.0', id: 7, method: 'session/prompt', params: { text: big } } as AnyMessage, 1000);
    expect(refused?.toAgent).toBeUndefined();
    expect(refused?.toUs).toMatchObject({
      id: 7,
      error: { message: expect.stringMatching(/^Not sent: this session\/prompt message is .* over the .* limit of one ACP message/) },
    });
  });

  it('turns an oversized answer to the agent into an error answer, and drops an oversized notification', () => {
    expect(refuseOversize({ jsonrpc: '2.0', id: 'r1', result: { content: big } } as AnyMessage, 1000)?.toAgent).toMatchObject({
      id: 'r1',
      error: { code: -32603 },
    });
    expect(refuseOversize({ jsonrpc: '2.0', method: 'session/cancel', params: { big } } as AnyMessage, 1000)).toEqual({});
    expect(refuseOversize({ jsonrpc: '2.0', id: 1, result: { small: true } } as AnyMessage, 1000)).toBeNull();
  });
});
