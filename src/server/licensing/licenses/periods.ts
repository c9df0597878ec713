import type { BillingInterval } from '../../../shared/api/plans.js';
import { utc } from '../../../shared/dates.js';

/**
 * The expiry of a license bought at `from` for one billing interval; null for plans that never
 * lapse. A month or year that has no such day ends on its last day: bought on 31 January, it
 * runs to 28 (or 29) February, not into March.
 */
export function expiryAfterInterval(interval: BillingInterval, from: Date): string | null {
  if (interval === 'month' || interval === 'year') return utc(from).add(1, interval).toISOString();
  return null;
}
