/** Largest serialized request main accepts; larger ones are refused with a clear error. */
export const MAX_REQUEST_BYTES = 4 * 1024 * 1024;
