/**
 * The four wire formats the scripted model speaks: each turns a request body into a
 * `Conversation` and a `Step` into the events its streaming API sends (OpenAI chat
 * completions, OpenAI Responses, Anthropic Messages, Gemini `streamGenerateContent`), or
 * into the one JSON body of a non-streaming call.
 */
import type { Conversation, Message, Step, ToolSpec } from './script';

type Json = Record<string, unknown>;
/** One server-sent event: an optional `event:` name and its JSON data (a string is sent as is). */
export interface SseEvent {
  event?: string;
  data: Json | string;
}

const asArray = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
const textOf = (content: unknown): string => {
  if (typeof content === 'string') return content;
  return asArray(content)
    .map((part) => (typeof part.text === 'string' ? part.text : typeof part === 'string' ? part : ''))
    .join('\n');
};
const argsJson = (step: Step) => JSON.stringify(step.call?.args ?? {});
let counter = 0;
const id = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(counter++).toString(36)}`;

// ---------------------------------------------------------------- OpenAI chat completions

export function chatConversation(body: Json): Conversation {
  const messages: Message[] = [];
  for (const message of asArray(body.messages)) {
    if (message.role === 'user') messages.push({ role: 'user', text: textOf(message.content) });
    else if (message.role === 'tool') messages.push({ role: 'toolResult', text: textOf(message.content) });
    else if (message.role === 'assistant') messages.push({ role: 'assistant', text: textOf(message.content) });
  }
  const tools: ToolSpec[] = asArray(body.tools).map((tool) => {
    const fn = (tool.function ?? tool) as Json;
    return { name: String(fn.name), schema: fn.parameters as ToolSpec['schema'] };
  });
  const format = body.response_format as Json | undefined;
  return { tools, messages, wantsJson: format?.type === 'json_object' || format?.type === 'json_schema' };
}

export function chatEvents(step: Step, model: string): SseEvent[] {
  const base = { id: id('chatcmpl'), object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model };
  const chunk = (delta: Json, finish: string | null = null): SseEvent => ({ data: { ...base, choices: [{ index: 0, delta, finish_reason: finish }] } });
  const events: SseEvent[] = [chunk({ role: 'assistant', content: '' })];
  if (step.thought) events.push(chunk({ reasoning_content: step.thought }));
  if (step.text) for (const piece of split(step.text)) events.push(chunk({ content: piece }));
  if (step.call) {
    const callId = id('call');
    events.push(chunk({ tool_calls: [{ index: 0, id: callId, type: 'function', function: { name: step.call.name, arguments: '' } }] }));
    events.push(
      chunk({
        tool_calls: [{ index: 0, function: { arguments: step.call.input !== undefined ? JSON.stringify({ input: step.call.input }) : argsJson(step) } }],
      }),
    );
  }
  events.push(chunk({}, step.call ? 'tool_calls' : 'stop'));
  events.push({ data: { ...base, choices: [], usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 } } });
  events.push({ data: '[DONE]' });
  return events;
}

export function chatBody(step: Step, model: string): Json {
  const message: Json = { role: 'assistant', content: step.text ?? null };
  if (step.thought) message.reasoning_content = step.thought;
  if (step.call) message.tool_calls = [{ id: id('call'), type: 'function', function: { name: step.call.name, arguments: argsJson(step) } }];
  return {
    id: id('chatcmpl'),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, finish_reason: step.call ? 'tool_calls' : 'stop' }],
    usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
  };
}

// ---------------------------------------------------------------- OpenAI Responses

export function responsesConversation(body: Json): Conversation {
  const messages: Message[] = [];
  const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : asArray(body.input);
  for (const item of input) {
    const type = item.type ?? 'message';
    if (type === 'message' && item.role === 'user') messages.push({ role: 'user', text: textOf(item.content) });
    else if (type === 'message' && item.role === 'assistant') messages.push({ role: 'assistant', text: textOf(item.content) });
    else if (type === 'function_call_output' || type === 'custom_tool_call_output' || type === 'local_shell_call_output')
      messages.push({ role: 'toolResult', text: textOf(item.output) });
  }
  const tools: ToolSpec[] = asArray(body.tools).map((tool) =>
    tool.type === 'function' ? { name: String(tool.name), schema: tool.parameters as ToolSpec['schema'] } : { name: String(tool.name ?? tool.type) },
  );
  const format = (body.text as Json | undefined)?.format as Json | undefined;
  return { tools, messages, wantsJson: format?.type === 'json_schema' };
}

export function responsesEvents(step: Step, model: string): SseEvent[] {
  const responseId = id('resp');
  const response = (status: string, output: Json[]) => ({
    id: responseId,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    model,
    output,
    usage:
      status === 'completed'
        ? {
            input_tokens: 100,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: 20,
            output_tokens_details: { reasoning_tokens: 5 },
            total_tokens: 120,
          }
        : null,
  });
  const events: SseEvent[] = [];
  let seq = 0;
  const push = (type: string, data: Json) => events.push({ event: type, data: { type, sequence_number: seq++, ...data } });
  const output: Json[] = [];
  push('response.created', { response: response('in_progress', []) });
  if (step.thought) {
    const itemId = id('rs');
    const index = output.length;
    push('response.output_item.added', { output_index: index, item: { id: itemId, type: 'reasoning', summary: [] } });
    push('response.reasoning_summary_part.added', { item_id: itemId, output_index: index, summary_index: 0, part: { type: 'summary_text', text: '' } });
    push('response.reasoning_summary_text.delta', { item_id: itemId, output_index: index, summary_index: 0, delta: step.thought });
    push('response.reasoning_summary_text.done', { item_id: itemId, output_index: index, summary_index: 0, text: step.thought });
    push('response.reasoning_summary_part.done', {
      item_id: itemId,
      output_index: index,
      summary_index: 0,
      part: { type: 'summary_text', text: step.thought },
    });
    const item = { id: itemId, type: 'reasoning', summary: [{ type: 'summary_text', text: step.thought }] };
    output.push(item);
    push('response.output_item.done', { output_index: index, item });
  }
  if (step.text) {
    const itemId = id('msg');
    const index = output.length;
    push('response.output_item.added', { output_index: index, item: { id: itemId, type: 'message', role: 'assistant', status: 'in_progress', content: [] } });
    push('response.content_part.added', { item_id: itemId, output_index: index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
    for (const piece of split(step.text)) push('response.output_text.delta', { item_id: itemId, output_index: index, content_index: 0, delta: piece });
    push('response.output_text.done', { item_id: itemId, output_index: index, content_index: 0, text: step.text });
    const part = { type: 'output_text', text: step.text, annotations: [] };
    push('response.content_part.done', { item_id: itemId, output_index: index, content_index: 0, part });
    const item = { id: itemId, type: 'message', role: 'assistant', status: 'completed', content: [part] };
    output.push(item);
    push('response.output_item.done', { output_index: index, item });
  }
  if (step.call) {
    const index = output.length;
    const callId = id('call');
    let item: Json;
    if (step.call.input !== undefined) {
      item = { id: id('ctc'), type: 'custom_tool_call', status: 'completed', call_id: callId, name: step.call.name, input: step.call.input };
      push('response.output_item.added', { output_index: index, item: { ...item, input: '', status: 'in_progress' } });
      push('response.custom_tool_call_input.delta', { item_id: item.id, output_index: index, delta: step.call.input });
      push('response.custom_tool_call_input.done', { item_id: item.id, output_index: index, input: step.call.input });
    } else {
      item = { id: id('fc'), type: 'function_call', status: 'completed', call_id: callId, name: step.call.name, arguments: argsJson(step) };
      push('response.output_item.added', { output_index: index, item: { ...item, arguments: '', status: 'in_progress' } });
      push('response.function_call_arguments.delta', { item_id: item.id, output_index: index, delta: item.arguments });
      push('response.function_call_arguments.done', { item_id: item.id, output_index: index, arguments: item.arguments });
    }
    output.push(item);
    push('response.output_item.done', { output_index: index, item });
  }
  push('response.completed', { response: response('completed', output) });
  return events;
}

// ---------------------------------------------------------------- Anthropic Messages

export function anthropicConversation(body: Json): Conversation {
  const messages: Message[] = [];
  for (const message of asArray(body.messages)) {
    if (typeof message.content === 'string') {
      messages.push({ role: message.role === 'user' ? 'user' : 'assistant', text: message.content });
      continue;
    }
    const blocks = asArray(message.content);
    const text = blocks
      .filter((b) => b.type === 'text')
      .map((b) => String(b.text))
      .join('\n');
    if (message.role === 'user') {
      for (const block of blocks) if (block.type === 'tool_result') messages.push({ role: 'toolResult', text: textOf(block.content) });
      if (text) messages.push({ role: 'user', text });
    } else messages.push({ role: 'assistant', text });
  }
  const tools: ToolSpec[] = asArray(body.tools).map((tool) => ({ name: String(tool.name), schema: tool.input_schema as ToolSpec['schema'] }));
  return { tools, messages, wantsJson: (body.output_format as Json | undefined)?.type === 'json_schema' };
}

export function anthropicEvents(step: Step, model: string): SseEvent[] {
  const events: SseEvent[] = [];
  const push = (type: string, data: Json) => events.push({ event: type, data: { type, ...data } });
  push('message_start', {
    message: {
      id: id('msg'),
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 100, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    },
  });
  let index = 0;
  if (step.thought) {
    push('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
    push('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: step.thought } });
    push('content_block_delta', { index, delta: { type: 'signature_delta', signature: 'compat-signature' } });
    push('content_block_stop', { index: index++ });
  }
  if (step.text) {
    push('content_block_start', { index, content_block: { type: 'text', text: '' } });
    for (const piece of split(step.text)) push('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
    push('content_block_stop', { index: index++ });
  }
  if (step.call) {
    push('content_block_start', { index, content_block: { type: 'tool_use', id: id('toolu'), name: step.call.name, input: {} } });
    push('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: argsJson(step) } });
    push('content_block_stop', { index: index++ });
  }
  push('message_delta', { delta: { stop_reason: step.call ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 20 } });
  push('message_stop', {});
  return events;
}

export function anthropicBody(step: Step, model: string): Json {
  const content: Json[] = [];
  if (step.thought) content.push({ type: 'thinking', thinking: step.thought, signature: 'compat-signature' });
  if (step.text) content.push({ type: 'text', text: step.text });
  if (step.call) content.push({ type: 'tool_use', id: id('toolu'), name: step.call.name, input: step.call.args ?? {} });
  return {
    id: id('msg'),
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: step.call ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 100, output_tokens: 20 },
  };
}

// ---------------------------------------------------------------- Gemini generateContent

export function geminiConversation(body: Json): Conversation {
  const messages: Message[] = [];
  for (const content of asArray(body.contents)) {
    const parts = asArray(content.parts);
    for (const part of parts) if (part.functionResponse) messages.push({ role: 'toolResult', text: JSON.stringify(part.functionResponse) });
    const text = parts
      .filter((p) => typeof p.text === 'string' && !p.thought)
      .map((p) => String(p.text))
      .join('\n');
    if (text) messages.push({ role: content.role === 'model' ? 'assistant' : 'user', text });
  }
  const tools: ToolSpec[] = [];
  for (const tool of asArray(body.tools)) {
    for (const fn of asArray(tool.functionDeclarations)) {
      tools.push({ name: String(fn.name), schema: (fn.parametersJsonSchema ?? fn.parameters) as ToolSpec['schema'] });
    }
  }
  const config = (body.generationConfig ?? {}) as Json;
  return { tools, messages, wantsJson: config.responseMimeType === 'application/json' };
}

const usage = { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 };

function geminiParts(step: Step): Json[] {
  const parts: Json[] = [];
  if (step.thought) parts.push({ text: step.thought, thought: true });
  if (step.text) parts.push({ text: step.text });
  if (step.call) parts.push({ functionCall: { name: step.call.name, args: step.call.args ?? {} } });
  return parts;
}

export function geminiEvents(step: Step, model: string): SseEvent[] {
  const parts = geminiParts(step).flatMap((part) => (typeof part.text === 'string' && !part.thought ? split(part.text).map((text) => ({ text })) : [part]));
  return parts.map((part, index) => ({
    data: {
      candidates: [{ content: { role: 'model', parts: [part] }, index: 0, ...(index === parts.length - 1 ? { finishReason: 'STOP' } : {}) }],
      usageMetadata: usage,
      modelVersion: model,
    },
  }));
}

export function geminiBody(step: Step, model: string): Json {
  return { candidates: [{ content: { role: 'model', parts: geminiParts(step) }, finishReason: 'STOP', index: 0 }], usageMetadata: usage, modelVersion: model };
}

/** Splits text in two so every stream has more than one text delta. */
function split(text: string): string[] {
  const middle = text.indexOf(' ', Math.floor(text.length / 2));
  return middle > 0 ? [text.slice(0, middle), text.slice(middle)] : [text];
}
