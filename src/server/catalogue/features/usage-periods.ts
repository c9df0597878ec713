import type { UsagePeriod } from '../../../shared/api/features.js';
import { utc } from '../../../shared/dates.js';

/**
 * Start of the UTC day or calendar month that `now` falls in: usage limits reset there. Cut from
 * the ISO text rather than worked out by dayjs: usage ingest asks once per event, and both starts
 * are a prefix of the instant's own UTC date.
 */
export function currentPeriodStart(period: UsagePeriod, now: Date): string {
  const iso = now.toISOString();
  return period === 'day' ? `${iso.slice(0, 10)}T00:00:00.000Z` : `${iso.slice(0, 7)}-01T00:00:00.000Z`;
}

/** End of the period that starts at `periodStart` (the start of the next one). */
export function periodEnd(period: UsagePeriod, periodStart: string): string {
  return utc(periodStart).add(1, period).toISOString();
}
