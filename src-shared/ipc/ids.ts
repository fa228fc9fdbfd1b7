import { z } from 'zod';

/**
 * The app's session ids name files (`sessions/<id>.jsonl`), so they are checked where they enter:
 * letters, digits, `_` and `-` only. A `../` or a separator can never reach a path.
 * The agent's own session ids (`acpSessionId`) are never file names and are not restricted here.
 */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{1,200}$/;

export const sessionIdSchema = z.string().regex(SESSION_ID_PATTERN, 'must be 1–200 letters, digits, "_" or "-" (a session id names a file)');
