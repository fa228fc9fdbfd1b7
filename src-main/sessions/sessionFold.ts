import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SessionEvent } from '../../src-shared/session/events';
import type { AgentCapabilities } from '../../src-shared/session/controls';
import { reduceSession } from '../../src-shared/session/reducer';
import type { SessionState } from '../../src-shared/session/state';
import type { LogFold } from '../store/logSnapshot';

/** What restoring a session needs from its log: the state, and what its agent last said it could do. */
export interface RestoredFold {
  state: SessionState;
  /** From the last `session.connected` (undefined: never connected). */
  capabilities?: AgentCapabilities | null;
}

/**
 * The fold's version names the reducer that made a snapshot. Bumping FOLD_VERSION by hand would
 * be forgotten when the event model changes, so the code that runs is part of it: the built
 * chunk holding this module (with the reducer beside it) in the app, this source file in tests.
 * A new build rebuilds each snapshot once, on its session's first open.
 */
// 2: controls (config options, commands, usage, questions, …) are typed in the state, no longer raw.
const FOLD_VERSION = 2;

function codeHash(): string {
  try {
    return createHash('sha1')
      .update(readFileSync(fileURLToPath(import.meta.url)))
      .digest('base64url')
      .slice(0, 12);
  } catch {
    return 'unknown';
  }
}

export const sessionFold: LogFold<RestoredFold> = {
  version: `${FOLD_VERSION}:${codeHash()}`,
  reduce(previous: RestoredFold | undefined, events: SessionEvent[]): RestoredFold {
    let capabilities = previous?.capabilities;
    for (const event of events) if (event.kind === 'session.connected') capabilities = event.capabilities;
    const next: RestoredFold = { state: reduceSession(previous?.state, events) };
    if (capabilities !== undefined) next.capabilities = capabilities;
    return next;
  },
  // The transcript entries are the snapshot's long list: written and read a line of them at a time.
  items: {
    of: (fold) => fold.state.entries,
    with: (fold, entries) => ({ ...fold, state: { ...fold.state, entries: entries as SessionState['entries'] } }),
  },
};
