import { z } from 'zod';
import type { EntryRange, SessionWindow } from '../session/window';
import { MAX_RANGE, PICKS, WINDOW_SIZE, type EntryPick } from '../session/window';
import { request } from './define';
import { sessionIdSchema } from './ids';

const index = z.number().int().min(0).max(100_000_000);

/** Paging a session's transcript from main (issue 23; src-shared/session/window.ts). Spread into `contract.ts`. */
export const windowRequests = {
  'session.window': request<SessionWindow>()(
    z.object({ sessionId: sessionIdSchema, size: z.number().int().min(1).max(MAX_RANGE).optional() }).strict(),
    `An open session's folded state with only its newest entries (${WINDOW_SIZE} unless \`size\`), their absolute index and the total; events after its \`lastSeq\` stream as usual.`,
  ),
  'session.entries': request<EntryRange>()(
    z.object({ sessionId: sessionIdSchema, from: index, to: index }).strict(),
    `Entries [from, to) of an open session as main has them now (at most ${MAX_RANGE}), with the \`seq\` they are folded to.`,
  ),
  'session.pick': request<EntryRange>()(
    z.object({ sessionId: sessionIdSchema, pick: z.enum(Object.keys(PICKS) as [EntryPick, ...EntryPick[]]) }).strict(),
    'Every entry of an open session one kind of view reads, with their indices: `changes` (the Review list), `user` (message numbers), `stop` (usage totals).',
  ),
  'session.locate': request<{ index: number | null }>()(
    z.object({ sessionId: sessionIdSchema, entryId: z.string().min(1).max(300) }).strict(),
    'The absolute index of an entry of an open session by its id (null: no such entry), to load the range around it (a search hit).',
  ),
};
