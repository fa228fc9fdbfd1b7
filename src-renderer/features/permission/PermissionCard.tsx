import type { PendingPermission } from '../../../src-shared/session/state';
import { bridge } from '../../bridge';
import { run } from '../../store/appStore';

/** One button per option, named as the agent names it and styled by its kind. */
export function PermissionCard({ sessionId, permission }: { sessionId: string; permission: PendingPermission }) {
  const title = String(permission.toolCall.title ?? 'The agent asks for permission');
  return (
    <div className="permission" role="group" aria-label={`Permission requested: ${title}`}>
      <p className="permission-question">
        <strong>Allow?</strong> {title}
      </p>
      <div className="permission-options">
        {permission.options.map((option) => (
          <button
            key={option.optionId}
            type="button"
            className={`option option-${option.kind}`}
            onClick={() => void run(bridge.request('permission.respond', { sessionId, requestId: permission.requestId, optionId: option.optionId }))}
          >
            {option.name}
          </button>
        ))}
      </div>
    </div>
  );
}
