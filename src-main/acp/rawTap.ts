import type { AnyMessage, Stream } from '@agentclientprotocol/sdk/unstable';

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
 * Wraps an SDK `Stream` so the raw JSON-RPC messages can be observed in order. The SDK
 * validates `session/update` against closed schemas and drops what it does not know; the
 * tap is how unknown update kinds, tool kinds and plan values reach the session's events.
 */
export function tapMessages(stream: Stream, tap: MessageTap): Stream {
  const readable = stream.readable.pipeThrough(
    new TransformStream<AnyMessage, AnyMessage>({
      transform(message, controller) {
        let forward: AnyMessage = message;
        try {
          forward = tap.incoming(message) ?? message;
        } catch (error) {
          console.error('message tap failed', error);
        }
        controller.enqueue(forward);
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
