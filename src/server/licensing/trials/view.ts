import type { LicenseTrial } from '../../../shared/api/licenses.js';

const DAY_MS = 86_400_000;

/** A trial as the check, the lease and the views tell it at `now`; null when the license is not a trial. */
export function trialAt(trialEndsAt: string | null, now: Date): LicenseTrial | null {
  if (trialEndsAt === null) return null;
  const left = Date.parse(trialEndsAt) - now.getTime();
  return { ends_at: trialEndsAt, days_left: left <= 0 ? 0 : Math.ceil(left / DAY_MS) };
}
