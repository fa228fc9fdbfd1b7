import type { PendingPermission } from '../../../src-shared/session/state';
import { UnknownBox } from '../../ui/UnknownBox';
import { AgentText } from '../../ui/AgentText';

/**
 * What a permission request approves, when the agent says it (ACP v2 `subject`): the exact
 * command and folder for a command, the tool call itself (already the card around it), or a
 * future / `_` subject shown raw. Plus the agent's explanation.
 */
export function PermissionSubject({ permission }: { permission: PendingPermission }) {
  const subject = permission.subject;
  return (
    <>
      {permission.description && (
        <p className="permission-description">
          <AgentText text={permission.description} />
        </p>
      )}
      {subject?.type === 'command' && (
        <div className="permission-subject">
          <pre className="tool-command" aria-label="Command to run">
            <span aria-hidden="true">$ </span>
            <AgentText text={subject.command} />
          </pre>
          {subject.cwd !== undefined && (
            <p className="muted small">
              <AgentText text={`in ${subject.cwd}`} />
            </p>
          )}
        </div>
      )}
      {subject?.type === 'unknown' && <UnknownBox label={`permission subject ${subject.typeName}`} raw={subject.raw} />}
    </>
  );
}
