import type { SessionEvent } from '../../src-shared/session/events';

/**
 * Coalesces a session's events and flushes them at most once per frame (~16 ms), in order.
 * Ten thousand streamed chunks become a few hundred batches, not ten thousand IPC messages.
 */
export class EventBatcher {
  private queues = new Map<string, SessionEvent[]>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly flushSession: (sessionId: string, events: SessionEvent[]) => void,
    private readonly intervalMs = 16,
  ) {}

  push(event: SessionEvent): void {
    let queue = this.queues.get(event.sessionId);
    if (!queue) this.queues.set(event.sessionId, (queue = []));
    queue.push(event);
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const queues = this.queues;
    this.queues = new Map();
    for (const [sessionId, events] of queues) this.flushSession(sessionId, events);
  }
}
