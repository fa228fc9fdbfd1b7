import type { TurnUsage } from '../session/controls';

export type { TurnUsage } from '../session/controls';

const FIELDS = ['inputTokens', 'outputTokens', 'thoughtTokens', 'cachedReadTokens', 'cachedWriteTokens'] as const;

/** The session's totals: the usage of every turn that reported one, added up, and how many did. */
export function sessionTurnUsage(entries: readonly ({ kind: string; usage?: TurnUsage | null } | undefined)[]): (TurnUsage & { turns: number }) | null {
  let sum: TurnUsage & { turns: number } = { totalTokens: 0, turns: 0 };
  for (const entry of entries) {
    if (entry?.kind !== 'stop') continue;
    const usage = entry.usage;
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
