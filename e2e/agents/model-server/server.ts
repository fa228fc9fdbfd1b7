/**
 * A local scripted model server (Node `http`, no dependencies) that real agents are pointed at
 * instead of their vendors' APIs. It answers the OpenAI chat completions and Responses APIs,
 * Anthropic Messages and Gemini `generateContent`/`streamGenerateContent`, streaming or not,
 * with the steps of `script.ts`; every request is recorded for the test's report.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nextStep, type Conversation, type Step } from './script';
import * as wire from './wire';

type Json = Record<string, unknown>;
type Api = 'chat' | 'responses' | 'anthropic' | 'gemini';

export interface RecordedRequest {
  method: string;
  path: string;
  api?: Api;
  stream?: boolean;
  tools?: string[];
  step?: Step;
}

export interface ModelServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

const MODELS = ['compat-model'];

export async function startModelServer(port = 0): Promise<ModelServer> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((request, response) => {
    void handle(request, response, requests).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: actual } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${actual}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readBody(request: IncomingMessage): Promise<Json> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  try {
    return JSON.parse(text) as Json;
  } catch {
    return {};
  }
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

async function handle(request: IncomingMessage, response: ServerResponse, requests: RecordedRequest[]): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const path = url.pathname;
  const record: RecordedRequest = { method: request.method ?? 'GET', path: path + url.search };
  requests.push(record);
  if (request.method === 'GET' || request.method === 'HEAD') {
    if (/\/models\/?$/.test(path)) {
      // OpenAI, Anthropic and Gemini model lists in one body.
      return json(response, 200, {
        object: 'list',
        data: MODELS.map((id) => ({ id, object: 'model', type: 'model', created: 0, owned_by: 'compat', display_name: id })),
        models: MODELS.map((id) => ({ name: `models/${id}`, displayName: id, supportedGenerationMethods: ['generateContent'] })),
      });
    }
    if (/\/models\/[^/]+$/.test(path)) return json(response, 200, { id: path.split('/').pop(), object: 'model', name: path.split('/').pop() });
    return json(response, 404, { error: { message: `compat model server: no GET ${path}` } });
  }
  const body = await readBody(request);
  if (path.endsWith('/count_tokens')) return json(response, 200, { input_tokens: 100 });
  if (path.endsWith(':countTokens')) return json(response, 200, { totalTokens: 100 });
  const model = String(body.model ?? /models\/([^:/]+)/.exec(path)?.[1] ?? MODELS[0]);
  let api: Api;
  let conversation: Conversation;
  if (path.endsWith('/chat/completions')) [api, conversation] = ['chat', wire.chatConversation(body)];
  else if (path.endsWith('/responses')) [api, conversation] = ['responses', wire.responsesConversation(body)];
  else if (path.endsWith('/messages')) [api, conversation] = ['anthropic', wire.anthropicConversation(body)];
  else if (/:(stream)?[gG]enerateContent$/.test(path)) [api, conversation] = ['gemini', wire.geminiConversation(body)];
  else return json(response, 404, { error: { message: `compat model server: no POST ${path}` } });
  const stream = api === 'gemini' ? path.endsWith(':streamGenerateContent') : body.stream === true;
  const step = nextStep(conversation);
  Object.assign(record, { api, stream, tools: conversation.tools.map((t) => t.name), step });

  if (!stream) {
    if (api === 'chat') return json(response, 200, wire.chatBody(step, model));
    if (api === 'anthropic') return json(response, 200, wire.anthropicBody(step, model));
    if (api === 'gemini') return json(response, 200, wire.geminiBody(step, model));
    const completed = wire.responsesEvents(step, model).at(-1)!.data as Json;
    return json(response, 200, completed.response);
  }
  const events =
    api === 'chat'
      ? wire.chatEvents(step, model)
      : api === 'responses'
        ? wire.responsesEvents(step, model)
        : api === 'anthropic'
          ? wire.anthropicEvents(step, model)
          : wire.geminiEvents(step, model);
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  let closed = false;
  response.on('close', () => (closed = true));
  const write = (event: wire.SseEvent) => {
    if (closed) return;
    const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
    response.write(`${event.event ? `event: ${event.event}\n` : ''}data: ${data}\n\n`);
  };
  for (const event of events) {
    write(event);
    if (step.slow && step.text && typeof event.data !== 'string' && JSON.stringify(event.data).includes(JSON.stringify(step.text.split(' ')[0]))) {
      // The Stop scenario: a text delta, then more dots every half second until the client goes (at most 30 s).
      const dot = { ...event, data: JSON.parse(JSON.stringify(event.data).replace(JSON.stringify(step.text.split(' ')[0]), '"."')) as Json };
      for (let i = 0; i < 60 && !closed; i++) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        write(dot);
      }
    }
  }
  response.end();
}

// Run directly: `npx tsx e2e/agents/model-server/server.ts [port]` prints each request.
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, '/'))) {
  const server = await startModelServer(Number(process.argv[2] ?? 0));
  console.log(`compat model server at ${server.url}`);
  setInterval(() => {
    while (server.requests.length) console.log(JSON.stringify(server.requests.shift()));
  }, 200);
}
