/**
 * The error the main process raises on purpose. Anything else that reaches a request's answer
 * is a bug and is logged as one (`core/dispatch.ts`, into `log/mainLog.ts`).
 */

/**
 * An error meant for the person: its message is shown as is (a request's answer, a notice, a
 * transcript line), so it says what went wrong and what to do, never a stack. When it answers
 * a request from the agent, `code` is the JSON-RPC code the agent gets (else the SDK's -32603).
 */
export class UserError extends Error {
  override name = 'UserError';
  constructor(
    message: string,
    readonly code?: number,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** JSON-RPC codes the client answers agents with (ACP uses JSON-RPC 2.0's and its own). */
export const AcpErrorCode = {
  invalidParams: -32602,
  internal: -32603,
  resourceNotFound: -32002,
  authRequired: -32000,
  methodNotFound: -32601,
  /** ACP v2: the requested protocol version is not supported; `data` has `requested` and `supported`. */
  protocolVersionNotSupported: -32022,
  /** `$/cancel_request` withdrew the request (rfds-request-cancellation). */
  requestCancelled: -32800,
} as const;
