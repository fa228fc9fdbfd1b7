import { isObject, num, type Raw } from './read';

/**
 * The token usage an agent reports when a turn ends (rfds-end-turn-token-usage: v1's
 * `PromptResponse.usage`, v2's idle `state_update.usage`), as recorded on the turn's stop entry.
 */
export interface TurnUsage {
  totalTokens: number;
  inputTokens?: number;
  outputTokens?: number;
  thoughtTokens?: number;
  cachedReadTokens?: number;
  cachedWriteTokens?: number;
}

const FIELDS = ['inputTokens', 'outputTokens', 'thoughtTokens', 'cachedReadTokens', 'cachedWriteTokens'] as const;

/** The usage of one turn; null when the agent reported none (or no total the app can read). */
export function turnUsage(raw: Raw | null | undefined): TurnUsage | null {
  if (!isObject(raw)) return null;
  const parts: Partial<TurnUsage> = {};
  for (const field of FIELDS) {
    const value = num(raw[field]);
    if (value !== undefined) parts[field] = value;
  }
  // The total is required by the RFD; an agent that sends only the parts still gets a total.
  const total =
    num(raw.totalTokens) ??
    (parts.inputTokens !== undefined || parts.outputTokens !== undefined ? (parts.inputTokens ?? 0) + (parts.outputTokens ?? 0) : undefined);
  return total === undefined ? null : { totalTokens: total, ...parts };
}

/** The session's totals: the usage of every turn that reported one, added up, and how many did. */
export function sessionTurnUsage(entries: readonly ({ kind: string; usage?: Raw | null } | undefined)[]): (TurnUsage & { turns: number }) | null {
  let sum: TurnUsage & { turns: number } = { totalTokens: 0, turns: 0 };
  for (const entry of entries) {
    if (entry?.kind !== 'stop') continue;
    const usage = turnUsage(entry.usage);
    if (!usage) continue;
    const next: TurnUsage & { turns: number } = { ...sum, totalTokens: sum.totalTokens + usage.totalTokens, turns: sum.turns + 1 };
    for (const field of FIELDS) if (usage[field] !== undefined) next[field] = (sum[field] ?? 0) + usage[field]!;
    sum = next;
  }
  return sum.turns ? sum : null;
}

/** "1,200 tokens (1,000 in · 200 out · 50 thinking)". */
export function describeTurnUsage(usage: TurnUsage, format: (n: number) => string = (n) => n.toLocaleString('en')): string {
  const parts = [
    usage.inputTokens !== undefined ? `${format(usage.inputTokens)} in` : null,
    usage.outputTokens !== undefined ? `${format(usage.outputTokens)} out` : null,
    usage.thoughtTokens !== undefined ? `${format(usage.thoughtTokens)} thinking` : null,
    usage.cachedReadTokens !== undefined ? `${format(usage.cachedReadTokens)} cache read` : null,
    usage.cachedWriteTokens !== undefined ? `${format(usage.cachedWriteTokens)} cache write` : null,
  ].filter(Boolean);
  return `${format(usage.totalTokens)} tokens${parts.length ? ` (${parts.join(' · ')})` : ''}`;
}
