import type { AnyMessage } from '@agentclientprotocol/sdk/unstable';
import type { AgentHost } from '../process/agentProcess';
import { logged } from '../log/mainLog';
import { ndJsonMessages, type MessageStream } from './messageStream';
import { GarbageSummary, guardStdout, MAX_LINE_BYTES } from './rawTap';

export interface FramingHooks {
  /** A stdout line that is not JSON-RPC (or a summary of many). */
  onGarbage(line: string): void;
  /** A message over the size limit was dropped. */
  onOversize(bytes: number): void;
  /** Hands over the function that reports held garbage (called before a response is passed on). */
  flushGarbage(flush: () => void): void;
  /** Each JSON-RPC line read or written, as it went (the protocol inspector's ring buffer). */
  onLine?: (dir: 'in' | 'out', line: string) => void;
  /** Whether JSON-RPC batches are accepted now (ACP v2 follows JSON-RPC 2.0 on batches; v1 refuses them). */
  batches?: () => boolean;
}

/**
 * The seam between an agent and its connection (issue 26): the SDK message `Stream` for an
 * agent, whatever carries it. A process's stdio is framed here (stdout guard, newline-delimited
 * JSON); a remote agent's transport already yields messages. Either way every incoming message
 * passes `incoming` (the raw tap, rawTap.ts) before the SDK sees it.
 */
export function agentMessages(
  host: AgentHost,
  incoming: (message: AnyMessage) => AnyMessage | null,
  hooks: FramingHooks,
): { stream: MessageStream; input?: ReadableStream<Uint8Array>; output?: WritableStream<Uint8Array> } {
  if (host.messages)
    return {
      stream: tappedMessages(host.messages() as { readable: ReadableStream<AnyMessage>; writable: WritableStream<AnyMessage> }, incoming, hooks.onLine),
    };
  const { input, output } = host.webStreams();
  // Non-JSON stdout is summarised and lines over the SDK's limit are dropped (rawTap.ts).
  const garbage = new GarbageSummary((text) => hooks.onGarbage(text));
  hooks.flushGarbage(() => garbage.flush());
  void host.exited.then(() => garbage.dispose());
  const guarded = guardStdout(input, {
    onGarbage: (line) => {
      // Kept with the agent's log too, so it is visible even when no session is listening.
      host.stderr.add(`[stdout, not ACP] ${line.slice(0, 500)}`);
      garbage.add(line);
    },
    onOversize: (bytes) => {
      host.stderr.add(`[stdout] a message of ${bytes} bytes, over the ${MAX_LINE_BYTES}-byte limit, was dropped`);
      hooks.onOversize(bytes);
    },
  });
  return { stream: ndJsonMessages(output, guarded, incoming, hooks.onLine, hooks.batches), input, output };
}

/** A message stream (a remote agent's) with the raw tap on its reading side and room to inject answers. */
export function tappedMessages(
  source: { readable: ReadableStream<AnyMessage>; writable: WritableStream<AnyMessage> },
  incoming: (message: AnyMessage) => AnyMessage | null,
  onLine?: (dir: 'in' | 'out', line: string) => void,
): MessageStream {
  let controller!: ReadableStreamDefaultController<AnyMessage>;
  let closed = false;
  const reader = source.readable.getReader();
  const readable = new ReadableStream<AnyMessage>({
    start: (c) => {
      controller = c;
    },
    pull: async () => {
      // A pull must deliver a message (or end): a notification taken raw reads on.
      for (;;) {
        let result: Awaited<ReturnType<typeof reader.read>>;
        try {
          result = await reader.read();
        } catch (error) {
          if (closed) return;
          closed = true;
          controller.error(error);
          return;
        }
        if (closed) return;
        if (result.done) {
          closed = true;
          controller.close();
          return;
        }
        // A transport yields objects: the inspector sees each as the line it would be on stdio.
        onLine?.('in', JSON.stringify(result.value));
        const forward = incoming(result.value);
        if (forward !== null) return controller.enqueue(forward);
      }
    },
    cancel: async (reason) => {
      closed = true;
      await reader.cancel(reason).catch(logged('Closing a remote agent stream', 'debug'));
    },
  });
  const writer = source.writable.getWriter();
  const writable = onLine
    ? new WritableStream<AnyMessage>({
        write: async (message) => {
          onLine('out', JSON.stringify(message));
          await writer.write(message);
        },
        close: () => writer.close(),
        abort: (reason) => writer.abort(reason),
      })
    : (writer.releaseLock(), source.writable);
  return {
    readable,
    writable,
    inject: (message) => {
      if (!closed) controller.enqueue(message);
    },
  };
}
