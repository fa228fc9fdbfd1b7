import type { PlanEntryItem, SessionState } from '../../../src-shared/session/state';

/**
 * The plan the side panel shows: the plan of the summary whose "Show plan" was pressed (kept
 * live: an agent's update of that plan replaces that entry), else the latest plan.
 */
export function shownPlan(state: Pick<SessionState, 'plan' | 'entries'>, planEntryId: string | null): PlanEntryItem[] {
  if (planEntryId !== null) {
    const entry = state.entries.find((candidate) => candidate?.id === planEntryId);
    if (entry?.kind === 'plan') return entry.entries;
  }
  return state.plan;
}
