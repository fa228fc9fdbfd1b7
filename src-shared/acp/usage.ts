import { isObject, num, str, type Raw } from './read';

/** A `usage_update` as the usage meter reads it: a cost counts only with a numeric amount and a currency. */
export type UsageView = { used?: number; size?: number; cost: { amount: number; currency: string } | null; raw: Raw };

export function usageView(raw: Raw): UsageView {
  const cost = isObject(raw.cost) ? raw.cost : null;
  const amount = num(cost?.amount);
  const currency = str(cost?.currency);
  return {
    used: num(raw.used),
    size: num(raw.size),
    cost: amount !== undefined && currency ? { amount, currency } : null,
    raw,
  };
}
