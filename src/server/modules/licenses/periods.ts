import type { UsagePeriod } from '../../../shared/api/features.js';

/** Start of the UTC day or calendar month that `now` falls in: usage limits reset there. */
export function currentPeriodStart(period: UsagePeriod, now: Date): string {
  const start =
    period === 'day'
      ? Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
      : Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  return new Date(start).toISOString();
}

/** End of the period that starts at `periodStart` (the start of the next one). */
export function periodEnd(period: UsagePeriod, periodStart: string): string {
  const start = new Date(periodStart);
  const end =
    period === 'day'
      ? Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate() + 1)
      : Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1);
  return new Date(end).toISOString();
}

/** The expiry of a license bought now for one billing interval; null for plans that never lapse. */
export function expiryAfterInterval(
  interval: 'month' | 'year' | 'lifetime' | 'free',
  from: Date,
): string | null {
  if (interval === 'month' || interval === 'year') {
    const end = new Date(from);
    if (interval === 'month') end.setUTCMonth(end.getUTCMonth() + 1);
    else end.setUTCFullYear(end.getUTCFullYear() + 1);
    return end.toISOString();
  }
  return null;
}
