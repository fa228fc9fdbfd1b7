import type { AnyMessage, Stream } from '@agentclientprotocol/sdk/unstable';

export interface MessageTap {
  /** Called synchronously for each incoming message before the SDK sees it. */
  incoming(message: AnyMessage): void;
  outgoing(message: AnyMessage): void;
}

/**
 * Wraps an SDK `Stream` so the raw JSON-RPC messages can be observed in order. The SDK
 * validates `session/update` against closed schemas and drops what it does not know; the
 * tap is how unknown update kinds, tool kinds and plan values reach the session's events.
 */
export function tapMessages(stream: Stream, tap: MessageTap): Stream {
  const readable = stream.readable.pipeThrough(
    new TransformStream<AnyMessage, AnyMessage>({
      transform(message, controller) {
        try {
          tap.incoming(message);
        } catch (error) {
          console.error('message tap failed', error);
        }
        controller.enqueue(message);
      },
    }),
  );
  const writer = new TransformStream<AnyMessage, AnyMessage>({
    transform(message, controller) {
      try {
        tap.outgoing(message);
      } catch (error) {
        console.error('message tap failed', error);
      }
      controller.enqueue(message);
    },
  });
  void writer.readable.pipeTo(stream.writable).catch(() => {});
  return { readable, writable: writer.writable };
}
