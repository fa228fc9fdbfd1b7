import { z } from 'zod';
import type { ReviewFileTexts, ReviewList } from '../session/review';
import { request } from './define';
import { sessionIdSchema } from './ids';

/** The Review panel's list and texts, computed in main (issue 23; src-shared/session/review.ts). Spread into `contract.ts`. */
export const reviewRequests = {
  'session.review': request<ReviewList>()(
    z.object({ sessionId: sessionIdSchema }).strict(),
    'The files an open session changed (the Review list): path, created/deleted, the number of changes and the tool calls that made them, without their texts; snippet diffs are settled by the files on disk.',
  ),
  'session.reviewFile': request<ReviewFileTexts>()(
    z.object({ sessionId: sessionIdSchema, path: z.string().min(1).max(4096) }).strict(),
    "One file of an open session's Review list with its text before the session's first change and now (null: the session changed no such file).",
  ),
};
