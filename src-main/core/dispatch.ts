import { describeIssues } from '../../src-shared/settings';
import { type ContractError, type Handlers, isRequestName, MAX_REQUEST_BYTES, requests } from '../../src-shared/ipc/contract';
import { UserError } from '../errors/errors';
import { logError } from '../log/mainLog';

export type DispatchResult = { ok: true; result: unknown } | { ok: false; error: ContractError };

/**
 * Validates and runs one request from the renderer. Bad input (unknown name, wrong types,
 * too large) gets a clear error; a handler that throws becomes an error answer. Never throws.
 * A `UserError` is meant for the person; anything else is a bug, logged with its stack
 * (`errors.ts`), and answered with its message.
 */
export async function dispatch(handlers: Handlers, name: unknown, input: unknown, size?: number): Promise<DispatchResult> {
  if (size !== undefined && size > MAX_REQUEST_BYTES) {
    return { ok: false, error: { code: 'too_large', message: `Request is ${size} bytes; the limit is ${MAX_REQUEST_BYTES}.` } };
  }
  if (!isRequestName(name)) {
    return { ok: false, error: { code: 'unknown_request', message: `Unknown request "${String(name).slice(0, 100)}".` } };
  }
  const parsed = requests[name].input.safeParse(input ?? {});
  if (!parsed.success) {
    return { ok: false, error: { code: 'bad_request', message: `Invalid input for ${name}: ${describeIssues(parsed.error)}` } };
  }
  try {
    const handler = handlers[name] as (input: unknown) => Promise<unknown>;
    return { ok: true, result: await handler(parsed.data) };
  } catch (error) {
    if (!(error instanceof UserError)) logError(`Unexpected error answering ${name}`, error);
    return { ok: false, error: { code: 'failed', message: (error as Error)?.message ?? String(error) } };
  }
}
