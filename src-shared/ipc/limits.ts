/** Largest serialized request main accepts; larger ones are refused with a clear error. */
export const MAX_REQUEST_BYTES = 4 * 1024 * 1024;

/** Largest first paint of a session main keeps (`session.firstPaint`): the rows of one viewport. */
export const MAX_FIRST_PAINT_CHARS = 512 * 1024;
