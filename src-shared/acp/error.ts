import { isObject, num, str } from './read';

/** A JSON-RPC error as it came from the agent (or the SDK): the fields read once, the value beside them. */
export type AcpErrorView = { code: number | null; message: string | null; data: unknown; raw: unknown };

export function acpErrorView(raw: unknown): AcpErrorView {
  if (!isObject(raw) && !(raw instanceof Error)) return { code: null, message: null, data: undefined, raw };
  const fields = raw as { code?: unknown; message?: unknown; data?: unknown };
  return { code: num(fields.code) ?? null, message: str(fields.message) ?? null, data: fields.data, raw };
}
