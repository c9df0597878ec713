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

/** Ends already worked out, by period and start: every read of a license's use asks for the same few. */
const knownEnds = new Map<string, string>();
const MAX_KNOWN_ENDS = 256;

/** End of the period that starts at `periodStart` (the start of the next one). */
export function periodEnd(period: UsagePeriod, periodStart: string): string {
  const key = `${period}|${periodStart}`;
  let end = knownEnds.get(key);
  if (end === undefined) {
    end = utc(periodStart).add(1, period).toISOString();
    if (knownEnds.size >= MAX_KNOWN_ENDS) knownEnds.clear();
    knownEnds.set(key, end);
  }
  return end;
}
