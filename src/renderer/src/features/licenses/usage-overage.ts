import type { FeatureUsage } from '../../../../shared/api/licenses';
import { utc } from '../../../../shared/dates';

/** What the use past a feature's allowance comes to this period, as the server will price it. */
export interface ProjectedOverage {
  /** Units used past the allowance. */
  units: number;
  /** Whole blocks of `per_units` (a part of a block is billed in full). */
  blocks: number;
  /** blocks × price, in the plan's minor unit. */
  amountMinor: number;
}

/**
 * The projected overage of a feature billed past its allowance (`bill` or `cap`): ceil(over /
 * per_units) × price_minor, the way docs/usage.md says the server charges it. Null under `stop`
 * or without a price: nothing past the allowance is billed.
 */
export function projectedOverage(
  feature: Pick<FeatureUsage, 'overage' | 'over_allowance'>,
): ProjectedOverage | null {
  const { policy, price_minor, per_units } = feature.overage;
  if (policy === 'stop' || price_minor === null) return null;
  const units = Math.max(0, feature.over_allowance);
  const blocks = Math.ceil(units / Math.max(1, per_units));
  return { units, blocks, amountMinor: blocks * price_minor };
}

/** Whether a feature keeps counting past its allowance at a price (the page then shows the overage). */
export const billsOverage = (feature: Pick<FeatureUsage, 'overage' | 'limit'>) =>
  feature.limit !== null && feature.overage.policy !== 'stop' && feature.overage.price_minor !== null;

/** Days a daily period's chart looks back: one bar a period is too little to read. */
const DAILY_PERIOD_CHART_DAYS = 7;
/** The chart's days when a feature has no period start (not metered by period). */
const DEFAULT_CHART_DAYS = 30;

/**
 * How many days the chart of "this period" shows, ending today (UTC, as the server's rollups are):
 * from the monthly period's first day, a week for a daily feature.
 */
export function periodChartDays(
  feature: Pick<FeatureUsage, 'period' | 'period_start'>,
  now = Date.now(),
): number {
  if (feature.period === 'day') return DAILY_PERIOD_CHART_DAYS;
  if (!feature.period_start) return DEFAULT_CHART_DAYS;
  const days = utc(now).startOf('day').diff(utc(feature.period_start).startOf('day'), 'day') + 1;
  return Math.min(366, Math.max(1, days));
}
