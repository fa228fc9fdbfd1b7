import type { RequestInput, RequestName, RequestResult } from '../../src-shared/ipc/contract';
import type { EntryPick } from '../../src-shared/session/window';

type Request = <K extends RequestName>(name: K, input: RequestInput<K>) => Promise<RequestResult<K>>;

/**
 * How the store reads sessions from main (see sessionSync.ts): a session opens from its newest
 * window and pages older entries in (issue 23); `session.events` only catches up after a gap.
 * A function of the bridge's `request`, so the long-session guard runs it against a real core.
 */
export function sessionFetchers(request: Request) {
  return {
    fetchEvents: async (sessionId: string, afterSeq: number) => (await request('session.events', { sessionId, afterSeq })).events,
    fetchWindow: (sessionId: string) => request('session.window', { sessionId }),
    fetchRange: (sessionId: string, from: number, to: number) => request('session.entries', { sessionId, from, to }),
    fetchPick: (sessionId: string, pick: EntryPick) => request('session.pick', { sessionId, pick }),
  };
}
