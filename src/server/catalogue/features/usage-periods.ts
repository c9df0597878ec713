import type { UsagePeriod } from '../../../shared/api/features.js';
import { utc } from '../../../shared/dates.js';

/** Start of the UTC day or calendar month that `now` falls in: usage limits reset there. */
export function currentPeriodStart(period: UsagePeriod, now: Date): string {
  return utc(now).startOf(period).toISOString();
}

/** End of the period that starts at `periodStart` (the start of the next one). */
export function periodEnd(period: UsagePeriod, periodStart: string): string {
  return utc(periodStart).add(1, period).toISOString();
}
