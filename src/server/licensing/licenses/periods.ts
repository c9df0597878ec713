import type { UsagePeriod } from '../../../shared/api/features.js';
import type { BillingInterval } from '../../../shared/api/plans.js';
import { utc } from '../../../shared/dates.js';

/** Start of the UTC day or calendar month that `now` falls in: usage limits reset there. */
export function currentPeriodStart(period: UsagePeriod, now: Date): string {
  return utc(now).startOf(period).toISOString();
}

/** End of the period that starts at `periodStart` (the start of the next one). */
export function periodEnd(period: UsagePeriod, periodStart: string): string {
  return utc(periodStart).add(1, period).toISOString();
}

/**
 * The expiry of a license bought at `from` for one billing interval; null for plans that never
 * lapse. A month or year that has no such day ends on its last day: bought on 31 January, it
 * runs to 28 (or 29) February, not into March.
 */
export function expiryAfterInterval(interval: BillingInterval, from: Date): string | null {
  if (interval === 'month' || interval === 'year') return utc(from).add(1, interval).toISOString();
  return null;
}
