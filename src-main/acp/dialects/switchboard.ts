import type { AnyMessage, Stream } from '@agentclientprotocol/sdk/unstable';
import type { MessageTap } from '../rawTap';
import { logDebug, logError } from '../../log/mainLog';

/**
 * One agent process's message stream, lent to one SDK connection at a time. Negotiation needs
 * this: the v2 SDK client closes its connection when the agent answers `initialize` with 1,
 * and the v1 client must then `initialize` again on the same process. Detaching ends the
 * lent stream for the SDK without closing the process's pipes. The tap sees every raw
 * message in order (and may replace an incoming one, as in rawTap.ts).
 */
export class Switchboard {
  private current: Link | null = null;
  private writer: WritableStreamDefaultWriter<AnyMessage>;
  private ended = false;
  private endListeners = new Set<() => void>();
  readonly done: Promise<void>;

  constructor(
    stream: Stream,
    private tap: Partial<MessageTap> = {},
  ) {
    this.writer = stream.writable.getWriter();
    this.done = this.pump(stream.readable);
  }

  get isEnded(): boolean {
    return this.ended;
  }

  /** Called once when the process's stream ends (or at once if it has). */
  onEnd(listener: () => void): () => void {
    if (this.ended) {
      listener();
      return () => {};
    }
    this.endListeners.add(listener);
    return () => this.endListeners.delete(listener);
  }

  setTap(tap: Partial<MessageTap>): void {
    this.tap = tap;
  }

  /** A stream for a new SDK connection; the previous one is detached. */
  attach(): { stream: Stream; detach(): void } {
    this.current?.detach();
    const link = new Link(this.writer, () => this.tap);
    this.current = link;
    if (this.ended) link.end();
    return { stream: link.stream, detach: () => link.detach() };
  }

  private async pump(readable: ReadableStream<AnyMessage>): Promise<void> {
    const reader = readable.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        let forward = value;
        try {
          forward = this.tap.incoming?.(value) ?? value;
        } catch (error) {
          logError('The raw message tap failed on a message from the agent (passed on as it came)', error);
        }
        this.current?.deliver(forward);
      }
    } catch (error) {
      // The process's stream failed: the same as its end (the exit says why).
      logDebug("Reading the agent's output", error);
    } finally {
      this.ended = true;
      this.current?.end();
      for (const listener of this.endListeners) listener();
      this.endListeners.clear();
    }
  }
}

class Link {
  readonly stream: Stream;
  private controller!: ReadableStreamDefaultController<AnyMessage>;
  private attached = true;

  constructor(writer: WritableStreamDefaultWriter<AnyMessage>, tap: () => Partial<MessageTap>) {
    const readable = new ReadableStream<AnyMessage>({
      start: (controller) => {
        this.controller = controller;
      },
      cancel: () => {
        this.attached = false;
      },
    });
    const writable = new WritableStream<AnyMessage>({
      write: async (message) => {
        if (!this.attached) return;
        try {
          tap().outgoing?.(message);
        } catch (error) {
          logError('The raw message tap failed on a message to the agent (sent as it was)', error);
        }
        await writer.write(message);
      },
      // The SDK closing its connection must not close the process's stdin.
      close: () => {
        this.attached = false;
      },
      abort: () => {
        this.attached = false;
      },
    });
    this.stream = { readable, writable };
  }

  deliver(message: AnyMessage): void {
    if (!this.attached) return;
    try {
      this.controller.enqueue(message);
    } catch (error) {
      // The reader went away (the SDK closed its side): nothing is waiting for this message.
      logDebug('Delivering a message to a closed connection', error);
      this.attached = false;
    }
  }

  end(): void {
    if (!this.attached) return;
    this.attached = false;
    try {
      this.controller.close();
    } catch (error) {
      logDebug('Closing a connection that was already closed', error);
    }
  }

  detach(): void {
    this.end();
  }
}
