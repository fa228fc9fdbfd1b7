import { KNOWN_PLAN_PRIORITIES, KNOWN_PLAN_STATUSES, isKnown } from '../../../src-shared/acp/known';
import type { PlanEntryItem } from '../../../src-shared/session/state';
import { useSessionUi, useStore } from '../../store';
import { Icon } from '../../ui/Icon';
import { shownPlan } from './shownPlan';

const NO_PLAN: PlanEntryItem[] = [];

const STATUS_LABELS: Record<(typeof KNOWN_PLAN_STATUSES)[number], string> = {
  pending: 'Pending',
  in_progress: 'In progress',
  completed: 'Completed',
  cancelled: 'Cancelled',
};
const PRIORITY_LABELS: Record<(typeof KNOWN_PLAN_PRIORITIES)[number], string> = { high: 'High', medium: 'Medium', low: 'Low' };

export function planProgress(entries: readonly PlanEntryItem[]) {
  const done = entries.filter((e) => e.status === 'completed').length;
  const current = entries.find((e) => e.status === 'in_progress') ?? entries.find((e) => e.status === 'pending') ?? null;
  return { done, total: entries.length, current };
}

export function PlanStatusIcon({ status }: { status: string }) {
  if (status === 'in_progress') return <span className="plan-icon in-progress" aria-hidden="true" />;
  if (status === 'completed') return <Icon name="check" className="plan-icon completed" />;
  if (status === 'pending') return <span className="plan-icon pending" aria-hidden="true" />;
  if (status === 'cancelled') return <Icon name="x" className="plan-icon cancelled" />;
  return <Icon name="unknown" className="plan-icon unknown" />;
}

/** The plan chosen with "Show plan" (else the agent's latest), live: each entry with its status and priority. */
export function PlanView({ sessionId }: { sessionId: string }) {
  const planEntryId = useSessionUi(sessionId, (ui) => ui.planEntryId);
  const plan = useStore((s) => {
    const state = s.sessions[sessionId];
    return state ? shownPlan(state, planEntryId) : NO_PLAN;
  });
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
          const knownStatus = isKnown(KNOWN_PLAN_STATUSES, item.status);
          const knownPriority = isKnown(KNOWN_PLAN_PRIORITIES, item.priority);
          const status = isKnown(KNOWN_PLAN_STATUSES, item.status) ? STATUS_LABELS[item.status] : item.status;
          const priority = isKnown(KNOWN_PLAN_PRIORITIES, item.priority) ? PRIORITY_LABELS[item.priority] : item.priority;
          return (
            <li key={i} className={`plan-item plan-${knownStatus ? item.status : 'unknown'}`} aria-label={`${item.content} — ${status}, ${priority} priority`}>
              <PlanStatusIcon status={item.status} />
              <span className="plan-content">{item.content}</span>
              <span className={`priority priority-${knownPriority ? item.priority : 'unknown'}`}>{priority}</span>
              {!knownStatus && <span className="badge-neutral">{item.status}</span>}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
