import type { AnyMessage, Stream } from '@agentclientprotocol/sdk/unstable';
import { logError, logged } from '../log/mainLog';
import type { MessageStream } from './messageStream';
import { TAKEN_RAW } from './rawBoundary';
import { AcpErrorCode } from '../errors/errors';

export interface MessageTap {
  /**
   * Called synchronously for each incoming message before the SDK sees it. It may return a
   * replacement message for the SDK (the raw one stays with the tap): that is how values the
   * SDK's closed schemas would reject are kept from failing a whole request.
   */
  incoming(message: AnyMessage): AnyMessage | void;
  outgoing(message: AnyMessage): void;
}

/**
 * The raw JSON-RPC messages observed in order, around an SDK `Stream`. The SDK validates
 * `session/update` against closed schemas and drops what it does not know; the tap is how
 * unknown update kinds, tool kinds and plan values reach the session's events. Incoming
 * messages are tapped by the stream itself as it parses them (`ndJsonMessages`, no extra
 * stream hop per message); `tapMessages` wraps the writing side.
 */
export function tapIncoming(tap: Pick<MessageTap, 'incoming'>): (message: AnyMessage) => AnyMessage | null {
  return (message) => {
    try {
      const forward = tap.incoming(message);
      if (forward === TAKEN_RAW) return null;
      return forward ?? message;
    } catch (error) {
      logError('The raw message tap failed on a message from the agent (passed on as it came)', error);
      return message;
    }
  };
}

/** The writing side of `stream` tapped (and oversized messages refused); see `tapIncoming`. */
export function tapMessages(stream: MessageStream, tap: Pick<MessageTap, 'outgoing'>, maxBytes = MAX_LINE_BYTES): Stream {
  const writer = new TransformStream<AnyMessage, AnyMessage>({
    transform(message, controller) {
      // The agent's SDK dies on a line over its limit ("exited with code 1"): never send one.
      const refused = refuseOversize(message, maxBytes);
      if (refused) {
        if (refused.toUs) stream.inject(refused.toUs);
        if (!refused.toAgent) return;
        message = refused.toAgent;
      }
      try {
        tap.outgoing(message);
      } catch (error) {
        logError('The raw message tap failed on a message to the agent (sent as it was)', error);
      }
      controller.enqueue(message);
    },
  });
  // The pipe ends with the process; its error is the exit, reported by the process.
  void writer.readable.pipeTo(stream.writable).catch(logged('Writing to the agent', 'debug'));
  return { readable: stream.readable, writable: writer.writable };
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * An outgoing message over MAX_LINE_BYTES is not sent. Our request is answered (to us) with an
 * error saying so; our answer to the agent's request becomes an error answer; a notification is
 * dropped.
 */
export function refuseOversize(message: AnyMessage, maxBytes = MAX_LINE_BYTES): { toAgent?: AnyMessage; toUs?: AnyMessage } | null {
  // Cheap first: only a message with a long string can be too big.
  let bytes: number;
  try {
    const text = JSON.stringify(message);
    if (text.length <= maxBytes / 3) return null;
    bytes = Buffer.byteLength(text);
  } catch {
    return null;
  }
  if (bytes <= maxBytes) return null;
  const raw = message as { id?: unknown; method?: unknown };
  const limit = `${megabytes(maxBytes + 1024)} limit of one ACP message`;
  const hasId = raw.id !== undefined && raw.id !== null;
  if (typeof raw.method === 'string' && hasId) {
    const error = {
      code: AcpErrorCode.internal,
      message: `Not sent: this ${raw.method} message is ${megabytes(bytes)}, over the ${limit}. Send less at once (for example a smaller attachment).`,
    };
    return { toUs: { jsonrpc: '2.0', id: raw.id, error } as AnyMessage };
  }
  if (hasId) {
    const error = { code: AcpErrorCode.internal, message: `The answer is ${megabytes(bytes)}, over the ${limit}; it was not sent.` };
    return { toAgent: { jsonrpc: '2.0', id: raw.id, error } as AnyMessage };
  }
  return {};
}

/**
 * The longest line the SDK's `ndJsonStream` accepts (its DEFAULT_MAX_MESSAGE_BYTES, 32 MiB),
 * less a margin: a longer line makes the SDK error the whole stream (the agent looked dead).
 */
export const MAX_LINE_BYTES = 32 * 1024 * 1024 - 1024;

/** What a session shows when its agent sent a message over the limit (dropped, session goes on). */
export function oversizeNotice(bytes: number): { kind: 'notice'; level: 'warning'; message: string } {
  return {
    kind: 'notice',
    level: 'warning',
    message: `The agent sent a message of ${megabytes(bytes)}, larger than the ${megabytes(MAX_LINE_BYTES + 1024)} limit of one ACP message. It was dropped, so part of this reply may be missing; the session goes on.`,
  };
}

export interface StdoutGuard {
  /** A stdout line that cannot be JSON-RPC (its start only), already summarised (see GarbageSummary). */
  onGarbage(line: string): void;
  /** A line longer than MAX_LINE_BYTES was dropped before the SDK saw it. */
  onOversize(bytes: number, head?: string): void;
}

/** Whether a line can be JSON-RPC (an object; an array is a batch the SDK answers itself). */
function isProtocolLine(head: string): boolean {
  const trimmed = head.trimStart();
  return trimmed.startsWith('{') || trimmed.startsWith('[');
}

/**
 * Sits between the agent's stdout and the SDK: forwards whole lines only, drops a line over
 * `maxBytes` (reported, never buffered past the limit), and reports and drops lines that cannot
 * be JSON-RPC (the SDK answered each with a parse error: 50,000 log lines, 50,000 answers).
 * A line whose first byte is `{` is JSON-RPC's shape and is not decoded here at all; any other
 * line has only its start decoded, so multi-megabyte messages cost nothing extra. (Decoding the
 * start of every line, with a decoder made per line, was an eighth of the host's CPU at wire
 * speed: issue 11's host profile.)
 */
export function guardStdout(input: ReadableStream<Uint8Array>, guard: StdoutGuard, maxBytes = MAX_LINE_BYTES): ReadableStream<Uint8Array> {
  const HEAD = 2000;
  const OPEN_BRACE = 0x7b;
  const decoder = new TextDecoder();
  let pending: Uint8Array[] = [];
  let size = 0;
  let dropping = false;
  // The start of a line being dropped (its JSON-RPC id, for a bridge that answers in its place).
  let droppedHead = '';
  const headOf = (bytes: Uint8Array | undefined) => (bytes ? decoder.decode(bytes.subarray(0, 200)) : '');
  // The current line's first byte (-1 before any), and the start of any line not opening with `{`.
  let first = -1;
  let head: Uint8Array[] = [];
  let headSize = 0;
  const addHead = (bytes: Uint8Array) => {
    if (first === -1 && bytes.length > 0) first = bytes[0];
    if (first === OPEN_BRACE || headSize >= HEAD) return;
    const part = bytes.subarray(0, HEAD - headSize);
    head.push(part);
    headSize += part.length;
  };
  const headText = () => decoder.decode(Buffer.concat(head));
  const isProtocol = () => first === OPEN_BRACE || isProtocolLine(headText());
  const endLine = () => {
    if (!dropping && first !== OPEN_BRACE) {
      const trimmed = headText().trim();
      if (trimmed && !trimmed.startsWith('{')) guard.onGarbage(trimmed.slice(0, HEAD));
    }
    if (dropping) guard.onOversize(size, droppedHead);
    droppedHead = '';
    pending = [];
    size = 0;
    dropping = false;
    first = -1;
    head = [];
    headSize = 0;
  };
  return input.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        let start = 0;
        // Complete lines of this chunk not forwarded yet start here (forwarded as one piece).
        let from = 0;
        for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
          const line = chunk.subarray(start, nl);
          const continued = size > 0 || dropping;
          size += line.length;
          addHead(line);
          if (!dropping && size > maxBytes) {
            dropping = true;
            droppedHead = headOf(continued ? pending[0] : line);
          }
          const forward = !dropping && isProtocol();
          if (continued) {
            // The line began in an earlier chunk.
            if (forward) {
              for (const part of pending) controller.enqueue(part);
              controller.enqueue(chunk.subarray(start, nl + 1));
            }
            from = nl + 1;
          } else if (!forward) {
            if (start > from) controller.enqueue(chunk.subarray(from, start));
            from = nl + 1;
          }
          endLine();
          start = nl + 1;
        }
        if (start > from) controller.enqueue(chunk.subarray(from, start));
        if (start < chunk.length) {
          const rest = chunk.subarray(start);
          size += rest.length;
          addHead(rest);
          if (!dropping && size > maxBytes) {
            dropping = true;
            droppedHead = headOf(pending[0] ?? rest);
            pending = [];
          }
          if (!dropping) pending.push(rest);
        }
      },
      flush(controller) {
        if (!dropping && isProtocol()) for (const part of pending) controller.enqueue(part);
        if (size > 0 || dropping) endLine();
      },
    }),
  );
}

/**
 * Non-JSON stdout summarised: the first `first` lines one by one, then at most one report per
 * `intervalMs` with how many more came (an agent printing 50,000 lines made 50,000 notices).
 */
export class GarbageSummary {
  private shown = 0;
  private suppressed = 0;
  private latest = '';
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly report: (text: string) => void,
    private readonly first = 5,
    private readonly intervalMs = 1000,
  ) {}

  add(line: string): void {
    if (this.shown < this.first) {
      this.shown++;
      this.report(line);
      return;
    }
    this.suppressed++;
    this.latest = line;
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.suppressed === 0) return;
    const count = this.suppressed;
    this.suppressed = 0;
    this.report(`${count} more line(s) like this (latest: ${this.latest.slice(0, 200)})`);
  }

  dispose(): void {
    this.flush();
  }
}
