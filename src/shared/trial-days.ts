import type { LicenseTrial } from './api/licenses.js';

const DAY_MS = 86_400_000;

/** "1 day", "14 days": a trial's length or what is left of it, as every screen, mail and answer says it. */
export const dayCount = (count: number): string => `${count} day${count === 1 ? '' : 's'}`;

/**
 * A free trial as the check, the lease, the views and the desktop's offline check tell it at
 * `now`: its end and the whole days left, rounded up (0 once ended); null when there is no trial.
 */
export function trialAt(trialEndsAt: string | null | undefined, now: Date): LicenseTrial | null {
  if (!trialEndsAt) return null;
  const left = Date.parse(trialEndsAt) - now.getTime();
  return { ends_at: trialEndsAt, days_left: left <= 0 ? 0 : Math.ceil(left / DAY_MS) };
}
