import type { ElicitationRequest } from '../../src-shared/session/controls';
import { AcpErrorCode } from '../errors/errors';

/**
 * Request cancellation (`$/cancel_request`, rfds-request-cancellation): the notes a session shows
 * when the agent withdraws a request it made, and how to tell a withdrawal from other aborts.
 */

/** Whether an incoming request's abort came from the agent's `$/cancel_request` (code -32800), not from the connection closing. */
export function isWithdrawal(signal: AbortSignal): boolean {
  const reason = signal.reason as { code?: unknown } | undefined;
  return typeof reason === 'object' && reason !== null && reason.code === AcpErrorCode.requestCancelled;
}

/** "The agent withdrew its permission request “Edit src/app.ts”." */
export function withdrawnPermissionNote(tool: { title?: string | null } | undefined, title: string | undefined): string {
  const what = title ?? tool?.title ?? undefined;
  return `The agent withdrew its permission request${what ? ` “${what}”` : ''}; nothing was answered.`;
}

/** "The agent withdrew its question “Which branch should I deploy?”." */
export function withdrawnElicitationNote(request: ElicitationRequest): string {
  const message = request.message?.trim() ? request.message.trim().slice(0, 200) : undefined;
  return `The agent withdrew its question${message ? ` “${message}”` : ''}; nothing was answered.`;
}
