import type { PlanEntry, PlanEntryItem, SessionState } from '../../../src-shared/session/state';

/** The plan the side panel shows for a plan summary's "Show plan". */
export function shownPlan(state: Pick<SessionState, 'plan'>, _entry?: PlanEntry): PlanEntryItem[] {
  return state.plan;
}
