// Without zod: `serve` reads a session id (the first paint) before it loads the contract.
/**
 * The app's session ids name files (`sessions/<id>.jsonl`), so they are checked where they enter:
 * letters, digits, `_` and `-` only. A `../` or a separator can never reach a path.
 * The agent's own session ids (`acpSessionId`) are never file names and are not restricted here.
 */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{1,200}$/;
