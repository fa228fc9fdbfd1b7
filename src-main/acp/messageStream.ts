import { RequestError, type AnyMessage, type Stream } from '@agentclientprotocol/sdk/unstable';
import { logged } from '../log/mainLog';

/** A `Stream` whose reading side also takes messages from us (a refused request's answer). */
export interface MessageStream extends Stream {
  /** Puts a message in the incoming stream as if the agent had sent it. */
  inject(message: AnyMessage): void;
}

/**
 * Newline-delimited JSON-RPC over byte streams, with the same answers to bad lines as the SDK's
 * `ndJsonStream` (a parse error for invalid JSON, an invalid request for an array or a non-object,
 * each with `id: null`), but reading a whole chunk of lines per step: the SDK awaits each line
 * and the raw tap was another transform stream per message, and at wire speed (20,000 chunks of
 * an answer) that stream machinery cost the host as much as the rest of the app together
 * (issue 11's host profile). `incoming` sees each message in order before the SDK does and may
 * replace it (rawTap.ts), or return null to keep it from the SDK (a notification taken raw:
 * 20,000 streamed chunks are 20,000 reads the SDK need not do). Lines arrive whole and within
 * the size limit (`guardStdout`). `onLine` sees every line as it crosses the boundary, both
 * ways, as text (the protocol inspector's ring buffer: it must stay cheap).
 */
export function ndJsonMessages(
  output: WritableStream<Uint8Array>,
  input: ReadableStream<Uint8Array>,
  incoming: (message: AnyMessage) => AnyMessage | null = (message) => message,
  onLine?: (dir: 'in' | 'out', line: string) => void,
  /** Whether JSON-RPC batches are accepted now (ACP v2 follows JSON-RPC 2.0 on batches; v1 refuses them). */
  batches: () => boolean = () => false,
): MessageStream {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let writing: Promise<void> = Promise.resolve();
  const batching = new BatchAnswers((answers) => void write(answers).catch(logged('Answering a batch from the agent', 'debug')));
  const send = (message: unknown): Promise<void> => (batching.hold(message) ? Promise.resolve() : write(message));
  const write = (message: unknown): Promise<void> => {
    const text = JSON.stringify(message);
    onLine?.('out', text);
    const bytes = encoder.encode(`${text}\n`);
    const write = writing.then(async () => {
      const writer = output.getWriter();
      try {
        await writer.write(bytes);
      } finally {
        writer.releaseLock();
      }
    });
    writing = write.catch(() => {});
    return write;
  };
  const answer = (error: RequestError) =>
    void send({ jsonrpc: '2.0', id: null, error: error.toErrorResponse() }).catch(logged('Answering a bad line from the agent', 'debug'));

  let controller!: ReadableStreamDefaultController<AnyMessage>;
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  let closed = false;
  /** Parses a line and hands it on; whether the reader got a message from it. */
  const deliver = (text: string): boolean => {
    const line = text.trim();
    if (!line) return false;
    onLine?.('in', line);
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      answer(RequestError.parseError());
      return false;
    }
    if (Array.isArray(message)) {
      if (!batches()) answer(RequestError.invalidRequest(undefined, 'JSON-RPC batches are not supported'));
      else return deliverBatch(message);
    } else if (typeof message !== 'object' || message === null) answer(RequestError.invalidRequest(message));
    else {
      const forward = incoming(message as AnyMessage);
      if (forward === null) return false;
      controller.enqueue(forward);
      return true;
    }
    return false;
  };

  /**
   * A batch (JSON-RPC 2.0 §6): each member is handled as if it came alone; the answers to its
   * requests, and an error for each member that is not a message, go back together as one array
   * once all are ready; a batch of notifications is not answered; an empty one is one error.
   */
  const deliverBatch = (members: unknown[]): boolean => {
    if (!members.length) {
      answer(RequestError.invalidRequest(members, 'An empty JSON-RPC batch'));
      return false;
    }
    const errors: unknown[] = [];
    const waiting: unknown[] = [];
    const forward: AnyMessage[] = [];
    for (const member of members) {
      if (typeof member !== 'object' || member === null || Array.isArray(member)) {
        errors.push({ jsonrpc: '2.0', id: null, error: RequestError.invalidRequest(member).toErrorResponse() });
        continue;
      }
      const raw = member as { id?: unknown; method?: unknown };
      if (typeof raw.method === 'string' && raw.id !== undefined && raw.id !== null) waiting.push(raw.id);
      const next = incoming(member as AnyMessage);
      if (next !== null) forward.push(next);
    }
    batching.open(waiting, errors);
    for (const message of forward) controller.enqueue(message);
    return forward.length > 0;
  };

  // Text of a line that has not ended yet, across chunks (joined once the line ends: a 5 MB
  // message in 64 KB reads must not be searched for its end from the start on every read).
  let carry: string[] = [];
  /**
   * Delivers the lines that end in `chunk`; whether the reader got a message. A pull must not
   * end without one while a read waits: the stream would not pull again (it hung when every
   * line of a chunk was a notification taken raw). A chunk is decoded at once, not line by
   * line: a decoder call per message was a sixth of the host's CPU at wire speed (issue 11).
   */
  const split = (chunk: Uint8Array): boolean => {
    const text = decoder.decode(chunk, { stream: true });
    let start = 0;
    let enqueued = false;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      const line = text.slice(start, nl);
      if (deliver(carry.length ? carry.join('') + line : line)) enqueued = true;
      carry = [];
      start = nl + 1;
    }
    if (start < text.length) carry.push(text.slice(start));
    return enqueued;
  };

  const readable = new ReadableStream<AnyMessage>({
    start: (c) => {
      controller = c;
    },
    // Driven by the SDK reading: while nobody reads, the agent's pipe fills and it waits.
    pull: async () => {
      reader ??= input.getReader();
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (closed) return;
          if (done) {
            const rest = carry.join('') + decoder.decode();
            if (rest) deliver(rest);
            closed = true;
            controller.close();
            return;
          }
          if (split(value)) return;
        }
      } catch (error) {
        if (closed) return;
        closed = true;
        controller.error(error);
      }
    },
    cancel: async (reason) => {
      closed = true;
      await reader?.cancel(reason);
    },
  });

  const writable = new WritableStream<AnyMessage>({ write: (message) => send(message) });
  return {
    readable,
    writable,
    inject: (message) => {
      if (!closed) controller.enqueue(message);
    },
  };
}

/**
 * The app's answers to the requests of the agent's batches, held until every request of a batch
 * is answered, then sent as one array with the batch's errors (JSON-RPC 2.0 §6).
 */
class BatchAnswers {
  private byId = new Map<string, Batch>();

  constructor(private readonly send: (answers: unknown[]) => void) {}

  open(ids: unknown[], errors: unknown[]): void {
    if (!ids.length) {
      if (errors.length) this.send(errors);
      return;
    }
    const batch: Batch = { waiting: new Set(ids.map(key)), answers: [...errors] };
    for (const id of batch.waiting) this.byId.set(id, batch);
  }

  /** Takes an outgoing answer that belongs to a batch; whether it did. */
  hold(message: unknown): boolean {
    if (!this.byId.size || typeof message !== 'object' || message === null) return false;
    const raw = message as { id?: unknown; method?: unknown };
    if (raw.method !== undefined || raw.id === undefined) return false;
    const id = key(raw.id);
    const batch = this.byId.get(id);
    if (!batch) return false;
    this.byId.delete(id);
    batch.waiting.delete(id);
    batch.answers.push(message);
    if (!batch.waiting.size) this.send(batch.answers);
    return true;
  }
}

interface Batch {
  waiting: Set<string>;
  answers: unknown[];
}

const key = (id: unknown) => `${typeof id}:${String(id)}`;
