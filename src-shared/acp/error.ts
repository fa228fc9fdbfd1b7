import { isObject, num, str } from './read';

/** A JSON-RPC error as it came from the agent (or the SDK): the fields read once, the value beside them. */
export type AcpErrorView = { code: number | null; message: string | null; data: unknown; raw: unknown };

export function acpErrorView(raw: unknown): AcpErrorView {
  if (!isObject(raw) && !(raw instanceof Error)) return { code: null, message: null, data: undefined, raw };
  const fields = raw as { code?: unknown; message?: unknown; data?: unknown };
  return { code: num(fields.code) ?? null, message: str(fields.message) ?? null, data: fields.data, raw };
}

/** JSON-RPC `-32000`: the agent needs the person to sign in. */
export const AUTH_REQUIRED_CODE = -32000;

/** What a turn that met a sign-in shows: a step, not a failure; the message goes again after it. */
export const AUTH_RETRY_NOTE = 'Sign in to continue; the message is sent again after you sign in.';
