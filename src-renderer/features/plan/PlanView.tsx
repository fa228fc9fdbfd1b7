import type { PlanEntryItem } from '../../../src-shared/session/state';
import { EMPTY, useStore } from '../../store';
import { Icon } from '../../ui/Icon';

const STATUS_LABELS: Record<string, string> = { pending: 'Pending', in_progress: 'In progress', completed: 'Completed' };
const PRIORITY_LABELS: Record<string, string> = { high: 'High', medium: 'Medium', low: 'Low' };

export function planProgress(entries: readonly PlanEntryItem[]) {
  const done = entries.filter((e) => e.status === 'completed').length;
  const current = entries.find((e) => e.status === 'in_progress') ?? entries.find((e) => e.status === 'pending') ?? null;
  return { done, total: entries.length, current };
}

export function PlanStatusIcon({ status }: { status: string }) {
  if (status === 'in_progress') return <span className="plan-icon in-progress" aria-hidden="true" />;
  if (status === 'completed') return <Icon name="check" className="plan-icon completed" />;
  if (status === 'pending') return <span className="plan-icon pending" aria-hidden="true" />;
  return <Icon name="unknown" className="plan-icon unknown" />;
}

/** The agent's current plan, live: each entry with its status and priority. */
export function PlanView({ sessionId }: { sessionId: string }) {
  const plan = useStore((s) => s.sessions[sessionId]?.plan ?? (EMPTY as unknown as PlanEntryItem[]));
  const { done, total } = planProgress(plan);
  if (!plan.length) return <p className="muted panel-empty">The agent has not shared a plan.</p>;
  return (
    <div className="plan-view">
      <p className="plan-progress-line">
        <span>
          {done} of {total} done
        </span>
        <progress max={total} value={done} aria-label="Plan progress" />
      </p>
      <ol className="plan-list" aria-label="Plan entries">
        {plan.map((item, i) => {
          const status = STATUS_LABELS[item.status] ?? item.status;
          const priority = PRIORITY_LABELS[item.priority] ?? item.priority;
          return (
            <li key={i} className={`plan-item plan-${STATUS_LABELS[item.status] ? item.status : 'unknown'}`} aria-label={`${item.content} — ${status}, ${priority} priority`}>
              <PlanStatusIcon status={item.status} />
              <span className="plan-content">{item.content}</span>
              <span className={`priority priority-${PRIORITY_LABELS[item.priority] ? item.priority : 'unknown'}`}>{priority}</span>
              {!STATUS_LABELS[item.status] && <span className="badge-neutral">{item.status}</span>}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
