import { z } from 'zod';

import { SESSION_ID_PATTERN } from './sessionIdPattern';

export { SESSION_ID_PATTERN };

export const sessionIdSchema = z.string().regex(SESSION_ID_PATTERN, 'must be 1–200 letters, digits, "_" or "-" (a session id names a file)');
