import { z } from 'zod';
import { request } from './define';
import { sessionIdSchema } from './ids';
import { MAX_FIRST_PAINT_CHARS } from './limits';

const inset = z.number().min(0).max(100_000);

/** The page's first paint of the shown session (issue 23; src-main/store/firstPaintFile.ts). Spread into `contract.ts`. */
export const firstPaintRequests = {
  'session.firstPaint': request<{ saved: boolean }>()(
    z
      .object({
        sessionId: sessionIdSchema,
        seq: z.number().int().min(0),
        html: z.string().min(1).max(MAX_FIRST_PAINT_CHARS),
        insets: z.object({ left: inset, top: inset, right: inset, bottom: inset }).strict(),
        theme: z.enum(['light', 'dark']),
      })
      .strict(),
    "The rows the page shows at the bottom of a session's transcript, folded to `seq`: served inside index.html while the session is unchanged, so the next load paints them before its script runs (saved: false when main's fold is past `seq`).",
  ),
  'app.shellPaint': request<{ saved: boolean }>()(
    z
      .object({
        key: z.string().min(1).max(100),
        html: z.string().min(1).max(MAX_FIRST_PAINT_CHARS),
        theme: z.enum(['light', 'dark']),
      })
      .strict(),
    'The sidebar and tab strip the page drew from the cached app state named `key` (src-main/store/shellPaint.ts): served inside index.html with that very state, so the next load paints the agent list before its script runs (saved: false when the state is no longer the one served).',
  ),
};
