import type { AnyMessage } from '@agentclientprotocol/sdk/unstable';
import { describe, expect, it } from 'vitest';
import { ndJsonMessages } from './messageStream';

/** The agent's stdout as `chunks`; what the client reads, and what it wrote back to the agent. */
async function run(chunks: string[], incoming?: (message: AnyMessage) => AnyMessage) {
  const encoder = new TextEncoder();
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  const written: string[] = [];
  const decoder = new TextDecoder();
  const output = new WritableStream<Uint8Array>({ write: (bytes) => void written.push(decoder.decode(bytes)) });
  const stream = ndJsonMessages(output, input, incoming);
  const read: AnyMessage[] = [];
  for await (const message of stream.readable as unknown as AsyncIterable<AnyMessage>) read.push(message);
  await new Promise((resolve) => setTimeout(resolve, 10));
  return { read, written: written.map((line) => JSON.parse(line) as { id: unknown; error: { code: number; message: string } }), stream };
}

describe('ndJsonMessages: the SDK framing, a chunk of lines at a time', () => {
  it('reads messages in order across chunk boundaries, multi-byte characters split between chunks included', async () => {
    const line = JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { text: 'naïve 日本 😀' } });
    const bytes = new TextEncoder().encode(`${line}\n{"jsonrpc":"2.0","id":1,"result":{}}\n`);
    // Cut inside the emoji: the decoder must see the whole line.
    const cut = bytes.indexOf(0xf0) + 2;
    const input = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, cut));
        controller.enqueue(bytes.slice(cut));
        controller.close();
      },
    });
    const stream = ndJsonMessages(new WritableStream(), input);
    const read: AnyMessage[] = [];
    for await (const message of stream.readable as unknown as AsyncIterable<AnyMessage>) read.push(message);
    expect(read).toEqual([JSON.parse(line), { jsonrpc: '2.0', id: 1, result: {} }]);
  });

  it('answers bad lines as the SDK does (parse error, batch, not an object) and goes on; blank lines and a last line without a newline', async () => {
    const { read, written } = await run(['{"jsonrpc":"2.0","id":1,"result":{}}\n{not json\n', '[1,2]\n\n   \n42\n{"jsonrpc":"2.0","id":2,"result":{}}']);
    expect(read.map((m) => (m as { id: number }).id)).toEqual([1, 2]);
    expect(written.map((w) => [w.id, w.error.code])).toEqual([
      [null, -32700],
      [null, -32600],
      [null, -32600],
    ]);
    expect(written[1].error.message).toContain('batches are not supported');
  });

  it('hands each message to the tap first, which may replace it; a message we inject reaches the reader', async () => {
    const seen: unknown[] = [];
    const { read } = await run(['{"jsonrpc":"2.0","method":"a"}\n{"jsonrpc":"2.0","method":"b"}\n'], (message) => {
      seen.push((message as { method: string }).method);
      return (message as { method: string }).method === 'b' ? ({ jsonrpc: '2.0', method: 'replaced' } as AnyMessage) : message;
    });
    expect(seen).toEqual(['a', 'b']);
    expect(read.map((m) => (m as { method: string }).method)).toEqual(['a', 'replaced']);

    let release!: () => void;
    const held = new ReadableStream<Uint8Array>({ start: (controller) => void (release = () => controller.close()) });
    const stream = ndJsonMessages(new WritableStream(), held);
    stream.inject({ jsonrpc: '2.0', id: 9, error: { code: -32603, message: 'Not sent' } } as AnyMessage);
    release();
    const injected: AnyMessage[] = [];
    for await (const message of stream.readable as unknown as AsyncIterable<AnyMessage>) injected.push(message);
    expect(injected).toEqual([{ jsonrpc: '2.0', id: 9, error: { code: -32603, message: 'Not sent' } }]);
  });

  it('a chunk whose lines all stay from the reader (taken raw by the tap, or bad) does not stall the lines after it', async () => {
    const encoder = new TextEncoder();
    let push!: (text: string) => void;
    const input = new ReadableStream<Uint8Array>({ start: (controller) => void (push = (text) => controller.enqueue(encoder.encode(text))) });
    const stream = ndJsonMessages(new WritableStream(), input, (message) => ((message as { method?: string }).method === 'session/update' ? null : message));
    const reader = stream.readable.getReader();
    const next = reader.read();
    push('{"jsonrpc":"2.0","method":"session/update","params":{}}\n{"jsonrpc":"2.0","method":"session/update","params":{}}\n');
    await new Promise((resolve) => setTimeout(resolve, 10));
    push('{not json\n\n');
    await new Promise((resolve) => setTimeout(resolve, 10));
    push('{"jsonrpc":"2.0","id":3,"result":{}}\n');
    const result = await Promise.race([next, new Promise((resolve) => setTimeout(() => resolve('stalled'), 1000))]);
    expect(result).toEqual({ done: false, value: { jsonrpc: '2.0', id: 3, result: {} } });
  });

  it('writes each message as one JSON line', async () => {
    const written: string[] = [];
    const stream = ndJsonMessages(new WritableStream({ write: (bytes) => void written.push(new TextDecoder().decode(bytes)) }), new ReadableStream());
    const writer = stream.writable.getWriter();
    await writer.write({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { text: 'a\nb' } } as AnyMessage);
    await writer.write({ jsonrpc: '2.0', method: 'session/cancel', params: {} } as AnyMessage);
    expect(written).toEqual([
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"text":"a\\nb"}}\n',
      '{"jsonrpc":"2.0","method":"session/cancel","params":{}}\n',
    ]);
  });
});

describe('ndJsonMessages: JSON-RPC batches (accepted under ACP v2)', () => {
  /** A stream fed `lines`, with batches accepted; the SDK's side answers requests when told. */
  async function batchRun(lines: string[]) {
    const encoder = new TextEncoder();
    const input = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const line of lines) controller.enqueue(encoder.encode(`${line}\n`));
        controller.close();
      },
    });
    const written: unknown[] = [];
    const decoder = new TextDecoder();
    const output = new WritableStream<Uint8Array>({ write: (bytes) => void written.push(JSON.parse(decoder.decode(bytes))) });
    const stream = ndJsonMessages(output, input, undefined, undefined, () => true);
    const read: AnyMessage[] = [];
    for await (const message of stream.readable as unknown as AsyncIterable<AnyMessage>) read.push(message);
    const writer = stream.writable.getWriter();
    return { read, written, answer: (message: unknown) => writer.write(message as AnyMessage) };
  }

  it("hands each member on, and sends the answers to the batch's requests back as one array with an error for a member that is not a message", async () => {
    const { read, written, answer } = await batchRun([
      JSON.stringify([
        { jsonrpc: '2.0', id: 'a', method: 'fs/read_text_file', params: {} },
        { jsonrpc: '2.0', method: 'session/update', params: {} },
        42,
        { jsonrpc: '2.0', id: 'b', method: 'session/request_permission', params: {} },
      ]),
    ]);
    expect(read.map((m) => (m as { method: string }).method)).toEqual(['fs/read_text_file', 'session/update', 'session/request_permission']);
    // Answered out of order: nothing goes out until the last one.
    await answer({ jsonrpc: '2.0', id: 'b', result: { outcome: { outcome: 'cancelled' } } });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(written).toEqual([]);
    await answer({ jsonrpc: '2.0', id: 'a', result: { content: '' } });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(written).toHaveLength(1);
    const batch = written[0] as { id: unknown; error?: { code: number } }[];
    expect(Array.isArray(batch)).toBe(true);
    expect(batch.map((m) => [m.id, m.error?.code ?? 'ok'])).toEqual([
      [null, -32600],
      ['b', 'ok'],
      ['a', 'ok'],
    ]);
  });

  it('answers nothing to a batch of notifications, one error to an empty batch, and single messages as before', async () => {
    const { read, written, answer } = await batchRun([
      JSON.stringify([
        { jsonrpc: '2.0', method: 'a' },
        { jsonrpc: '2.0', method: 'b' },
      ]),
      '[]',
      JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'c' }),
    ]);
    expect(read.map((m) => (m as { method: string }).method)).toEqual(['a', 'b', 'c']);
    await answer({ jsonrpc: '2.0', id: 7, result: {} });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(written).toEqual([
      { jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32600 }) },
      { jsonrpc: '2.0', id: 7, result: {} },
    ]);
  });
});
