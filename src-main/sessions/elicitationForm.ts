import { checkAnswer } from '../../src-shared/acp/elicitation';
import type { ElicitationContent, ElicitationRequest } from '../../src-shared/session/controls';

/**
 * Checks a form-mode answer against the request's restricted JSON Schema with the same
 * validator the renderer's form uses (src-shared/acp/elicitation.ts), so both give the same
 * answer. Returns the problems, or an empty list.
 */
export function checkElicitationAnswer(request: ElicitationRequest & { mode: 'form' }, content: ElicitationContent): string[] {
  return checkAnswer(request.requestedSchema, content);
}
