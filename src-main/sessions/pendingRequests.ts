/**
 * Requests from the agent that wait for the person (permission, elicitation, outside-workspace
 * file access). Each is a promise keyed by id; cancelling the turn, closing the tab or the
 * agent exiting settles every one of them, so nothing waits forever.
 */
export class PendingRequests<T> {
  private pending = new Map<string, { sessionId: string; resolve: (value: T) => void; cancelValue: T }>();

  add(requestId: string, sessionId: string, cancelValue: T): Promise<T> {
    return new Promise<T>((resolve) => {
      this.pending.set(requestId, { sessionId, resolve, cancelValue });
    });
  }

  has(requestId: string): boolean {
    return this.pending.has(requestId);
  }

  sessionOf(requestId: string): string | undefined {
    return this.pending.get(requestId)?.sessionId;
  }

  resolve(requestId: string, value: T): boolean {
    const entry = this.pending.get(requestId);
    if (!entry) return false;
    this.pending.delete(requestId);
    entry.resolve(value);
    return true;
  }

  /** Settles every request of a session with its cancel value; returns their ids. */
  cancelSession(sessionId: string): string[] {
    const ids: string[] = [];
    for (const [id, entry] of this.pending) {
      if (entry.sessionId !== sessionId) continue;
      this.pending.delete(id);
      entry.resolve(entry.cancelValue);
      ids.push(id);
    }
    return ids;
  }

  get size(): number {
    return this.pending.size;
  }
}
