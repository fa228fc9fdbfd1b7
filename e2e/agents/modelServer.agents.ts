/**
 * The scripted model server's wire formats, checked over HTTP the way an agent's SDK reads
 * them (no browser, no network beyond 127.0.0.1): the streamed events reassemble into the
 * step the script chose for the conversation.
 */
import { expect, test } from '@playwright/test';
import { FINAL_TEXT, marker, SECOND_TEXT, SHELL_COMMAND, THOUGHT } from './model-server/script';
import { startModelServer, type ModelServer } from './model-server/server';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let server: ModelServer;
test.beforeAll(async () => {
  server = await startModelServer();
});
test.afterAll(async () => {
  await server.close();
});

async function sse(path: string, body: unknown): Promise<{ event?: string; data: string }[]> {
  const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const text = await response.text();
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((block) => ({ event: /^event: (.*)$/m.exec(block)?.[1], data: /^data: (.*)$/m.exec(block)![1] }));
}

const prompt = `Go ${marker('full', '/ws')}`;
const fnTool = (name: string, properties: Record<string, { type: string }>, required = Object.keys(properties)) => ({
  type: 'function',
  function: { name, parameters: { type: 'object', properties, required } },
});

test('OpenAI chat completions: reasoning_content, text and a write tool call in deltas, then [DONE]', async () => {
  const events = await sse('/v1/chat/completions', {
    model: 'm',
    stream: true,
    messages: [
      { role: 'system', content: 'sys' },
      { role: 'user', content: prompt },
    ],
    tools: [fnTool('write_file', { file_path: { type: 'string' }, content: { type: 'string' } }), fnTool('run_shell_command', { command: { type: 'string' } })],
  });
  expect(events.at(-1)!.data).toBe('[DONE]');
  const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data) as Json);
  const deltas = chunks.flatMap((c) => c.choices.map((choice: Json) => choice.delta));
  expect(deltas.map((d) => d.reasoning_content ?? '').join('')).toBe(THOUGHT);
  expect(deltas.map((d) => d.content ?? '').join('')).toBe('Writing hello.txt.');
  const calls = deltas.flatMap((d) => d.tool_calls ?? []);
  expect(calls[0].function.name).toBe('write_file');
  expect(JSON.parse(calls.map((c: Json) => c.function.arguments).join(''))).toEqual({ file_path: '/ws/hello.txt', content: 'hello\n' });
  expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe('tool_calls');
});

test('OpenAI Responses: after three tool results the shell call, as output_item events and response.completed', async () => {
  const output = (id: string) => ({ type: 'function_call_output', call_id: id, output: 'ok' });
  const events = await sse('/v1/responses', {
    model: 'm',
    stream: true,
    input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: prompt }] }, output('1'), output('2'), output('3')],
    tools: [{ type: 'function', name: 'exec_command', parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] } }],
  });
  expect(events[0].event).toBe('response.created');
  const completed = JSON.parse(events.at(-1)!.data) as Json;
  expect(completed.type).toBe('response.completed');
  expect(completed.response.output).toEqual([
    expect.objectContaining({ type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: SHELL_COMMAND }) }),
  ]);
  expect(events.map((e) => e.event)).toContain('response.function_call_arguments.done');
});

test('Anthropic Messages: thinking, text and tool_use blocks, message_stop; the final text after four results', async () => {
  const first = await sse('/v1/messages', {
    model: 'm',
    stream: true,
    max_tokens: 100,
    messages: [{ role: 'user', content: [{ type: 'text', text: prompt }] }],
    tools: [{ name: 'Write', input_schema: { type: 'object', properties: { file_path: { type: 'string' }, content: { type: 'string' } } } }],
  });
  const data = first.map((e) => JSON.parse(e.data) as Json);
  const events = first.map((e) => e.event);
  expect(events[0]).toBe('message_start');
  expect(events.slice(-2)).toEqual(['message_delta', 'message_stop']);
  expect(events.filter((e) => e === 'content_block_start')).toHaveLength(3);
  expect(events.filter((e) => e === 'content_block_stop')).toHaveLength(3);
  expect(data[2].delta).toEqual({ type: 'thinking_delta', thinking: THOUGHT });
  expect(
    data
      .filter((d) => d.delta?.type === 'text_delta')
      .map((d) => d.delta.text)
      .join(''),
  ).toBe('Writing hello.txt.');
  const tool = data.findIndex((d) => d.content_block?.type === 'tool_use');
  expect(data[tool].content_block).toMatchObject({ type: 'tool_use', name: 'Write' });
  expect(JSON.parse(data[tool + 1].delta.partial_json)).toEqual({ file_path: '/ws/hello.txt', content: 'hello\n' });
  expect(data.at(-2)!.delta.stop_reason).toBe('tool_use');

  const result = (n: number) => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${n}`, content: 'ok' }] });
  const last = await sse('/v1/messages', {
    model: 'm',
    stream: true,
    messages: [{ role: 'user', content: prompt }, result(1), result(2), result(3), result(4)],
    tools: [{ name: 'Bash', input_schema: {} }],
  });
  const text = last
    .map((e) => JSON.parse(e.data) as Json)
    .filter((d) => d.delta?.type === 'text_delta')
    .map((d) => d.delta.text)
    .join('');
  expect(text).toBe(FINAL_TEXT);
});

test('Gemini streamGenerateContent: a thought part, text and a functionCall; JSON answers for structured requests', async () => {
  const events = await sse('/v1beta/models/m:streamGenerateContent?alt=sse', {
    contents: [{ role: 'user', parts: [{ text: prompt }] }],
    tools: [
      {
        functionDeclarations: [
          { name: 'write_file', parametersJsonSchema: { type: 'object', properties: { file_path: { type: 'string' }, content: { type: 'string' } } } },
        ],
      },
    ],
  });
  const parts = events.flatMap((e) => (JSON.parse(e.data) as Json).candidates[0].content.parts);
  expect(parts[0]).toEqual({ text: THOUGHT, thought: true });
  expect(
    parts
      .filter((p: Json) => typeof p.text === 'string' && !p.thought)
      .map((p: Json) => p.text)
      .join(''),
  ).toBe('Writing hello.txt.');
  expect(parts.at(-1)).toEqual({ functionCall: { name: 'write_file', args: { file_path: '/ws/hello.txt', content: 'hello\n' } } });

  const response = await fetch(`${server.url}/v1beta/models/m:generateContent`, {
    method: 'POST',
    body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'who speaks next?' }] }], generationConfig: { responseMimeType: 'application/json' } }),
  });
  const body = (await response.json()) as Json;
  expect(JSON.parse(body.candidates[0].content.parts[0].text)).toMatchObject({ next_speaker: 'user' });
});

test('side requests without tools (titles, summaries) get a short plain answer', async () => {
  const response = await fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: prompt }] }),
  });
  const body = (await response.json()) as Json;
  expect(body.choices[0].message).toMatchObject({ role: 'assistant', content: 'Compat run' });
  expect(body.choices[0].message.tool_calls).toBeUndefined();
});

test('a user message that holds a stopped prompt and the next one (Claude Code 0.16 merges them) is answered for the latest', async () => {
  const merged = `Keep going ${marker('slow')}\n\nAnd again ${marker('second')}`;
  const events = await sse('/v1/messages', {
    model: 'm',
    stream: true,
    max_tokens: 100,
    messages: [{ role: 'user', content: [{ type: 'text', text: merged }] }],
    tools: [{ name: 'Bash', input_schema: {} }],
  });
  const text = events
    .map((e) => JSON.parse(e.data) as Json)
    .filter((d) => d.delta?.type === 'text_delta')
    .map((d) => d.delta.text)
    .join('');
  expect(text).toBe(SECOND_TEXT);
});
