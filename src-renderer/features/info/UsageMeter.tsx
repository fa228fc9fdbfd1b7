import { useStore } from '../../store';

/** Thresholds from rfds-session-usage: <75% normal, 75–90 yellow, 90–95 orange, >95 red. */
export function usageLevel(percent: number): 'ok' | 'filling' | 'high' | 'critical' {
  if (percent > 95) return 'critical';
  if (percent >= 90) return 'high';
  if (percent >= 75) return 'filling';
  return 'ok';
}

const LEVEL_TEXT = { ok: '', filling: 'Context filling up', high: 'Start a new session or summarize', critical: 'Next prompt may fail' };

export function formatTokens(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 1000) return `${Math.round(n / 100) / 10}k`;
  return String(n);
}

export function formatCost(cost: { amount: number; currency: string }): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: cost.currency, maximumFractionDigits: cost.amount < 1 ? 3 : 2 }).format(cost.amount);
  } catch {
    return `${cost.amount} ${cost.currency}`;
  }
}

/** Context window use (tokens used of size, %) and cost, when the agent reports them. */
export function UsageMeter({ sessionId }: { sessionId: string }) {
  const usage = useStore((s) => s.sessions[sessionId]?.usage ?? null);
  if (!usage || (usage.used === undefined && !usage.cost)) return null;
  const percent = usage.used !== undefined && usage.size ? Math.min(100, (usage.used / usage.size) * 100) : null;
  const level = percent === null ? 'ok' : usageLevel(percent);
  const label =
    percent !== null
      ? `Context: ${formatTokens(usage.used!)} of ${formatTokens(usage.size!)} tokens (${Math.round(percent)}%)${LEVEL_TEXT[level] ? ` — ${LEVEL_TEXT[level]}` : ''}`
      : usage.used !== undefined
        ? `Context: ${formatTokens(usage.used)} tokens`
        : '';
  return (
    <div className={`usage usage-${level}`} title={label}>
      {percent !== null && (
        <span
          className="usage-meter"
          role="meter"
          aria-label="Context window used"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(percent)}
          aria-valuetext={label}
        >
          <span className="usage-fill" style={{ width: `${percent}%` }} />
        </span>
      )}
      {usage.used !== undefined && (
        <span className="usage-text small">
          {formatTokens(usage.used)}
          {usage.size ? ` / ${formatTokens(usage.size)}` : ''}
          {percent !== null ? ` · ${Math.round(percent)}%` : ''}
        </span>
      )}
      {usage.cost && (
        <span className="usage-cost small" aria-label={`Cost ${formatCost(usage.cost)}`}>
          {formatCost(usage.cost)}
        </span>
      )}
    </div>
  );
}
