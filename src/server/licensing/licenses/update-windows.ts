import semver from 'semver';
import type { License } from '../../../shared/api/licenses.js';
import { utc } from '../../../shared/dates.js';
import { coveredVersionMessage } from '../../../shared/update-window.js';
import type { Clock } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { LicenseRow, PlanRow } from '../../platform/db/tables.js';
import { conflict } from '../../platform/http-error.js';
import type { LicensingEvents } from '../events.js';
import { licensesWithUpdatesOfPlan, moveUpdatesUntilIfUnchanged } from './repository.js';

/**
 * Perpetual licenses with an update window: a plan with `update_months` (and no
 * `renews_updates_of`) never expires, and its license covers the releases published before its
 * `updates_until`; an update renewal plan moves that moment on by its own `update_months`.
 */

/** Whether a plan is perpetual with an update window (an update renewal is not). */
export const isPerpetual = (plan: Pick<PlanRow, 'update_months' | 'renews_updates_of'>): boolean =>
  plan.update_months !== null && plan.renews_updates_of === null;

/** The end of an update window of `months` from `from` (the last day of a shorter month, as periods). */
export const windowEnd = (months: number, from: Date | string): string =>
  utc(from).add(months, 'month').toISOString();

/** The window a new license of the plan gets from `now`, or null for a plan without one. */
export const updatesUntilFor = (
  plan: Pick<PlanRow, 'update_months' | 'renews_updates_of'>,
  now: Date,
): string | null =>
  isPerpetual(plan) && plan.update_months !== null ? windowEnd(plan.update_months, now) : null;

const noLicenseToRenew = (plan: Pick<PlanRow, 'name'>) =>
  conflict(
    'no_perpetual_license',
    `${plan.name} renews the updates of a perpetual license, and you have none to renew: buy the perpetual plan first.`,
  );

/**
 * Refuses a renewal before any money moves (409 `no_perpetual_license`) when the buyer holds no
 * license of the perpetual plan it renews. Billing asks it when the order is opened.
 */
export async function assertRenewable(
  db: DbOrTransaction,
  userId: string,
  plan: Pick<PlanRow, 'name' | 'renews_updates_of'>,
): Promise<void> {
  if (plan.renews_updates_of === null) return;
  const licenses = await licensesWithUpdatesOfPlan(db, userId, plan.renews_updates_of);
  if (licenses.length === 0) throw noLicenseToRenew(plan);
}

/** Optimistic retries of a renewal that raced another one on the same license. */
const RENEWAL_ATTEMPTS = 5;

/**
 * A paid update renewal: the buyer's license of the perpetual plan (the one whose window ends
 * first) gets `update_months` more, from the window's end, or from now when it has lapsed.
 * Answers the license and the window the payment bought, which its invoice names. Announced as
 * `license.updated`, so the webhooks hear of it and the license's checks are answered afresh.
 */
export async function renewUpdates(
  trx: DbOrTransaction,
  clock: Clock,
  events: LicensingEvents,
  userId: string,
  plan: PlanRow,
): Promise<{ license: LicenseRow; period: { start: string; end: string } }> {
  const months = plan.update_months;
  if (plan.renews_updates_of === null || months === null)
    throw new Error(`plan ${plan.id} renews no updates`);
  for (let attempt = 0; attempt < RENEWAL_ATTEMPTS; attempt++) {
    const now = clock.now();
    const [license] = await licensesWithUpdatesOfPlan(trx, userId, plan.renews_updates_of);
    // Refused when the order was opened; a license revoked since then is the only way here.
    if (!license?.updates_until) throw noLicenseToRenew(plan);
    const start =
      Date.parse(license.updates_until) > now.getTime() ? license.updates_until : now.toISOString();
    const end = windowEnd(months, start);
    const renewed = await moveUpdatesUntilIfUnchanged(trx, license.id, license.updates_until, {
      updates_until: end,
      updated_at: now.toISOString(),
    });
    if (renewed) {
      await events.publish(trx, { type: 'license.updated', license: renewed });
      return { license: renewed, period: { start, end } };
    }
  }
  throw new Error(`the update window of a license of plan ${plan.renews_updates_of} kept changing`);
}

/** The versions an ended window covers, as distribution answers them (supplied at composition). */
export type CoveredVersionsLookup = (
  updatesUntil: string,
) => Promise<{ covered: string | null; next: string | null }>;

/** Without distribution (a suite of fewer contexts): no release is known. */
export const noReleases: CoveredVersionsLookup = () => Promise.resolve({ covered: null, next: null });

/** What a license check of a perpetual license adds to its answer, and the message it gives. */
export interface WindowAnswer {
  fields: { updates_until: string; update_window_ended: boolean; covered_version?: string | null };
  message: string;
}

/**
 * A perpetual license's check: valid whatever version the app runs (the license never expires);
 * once its window has ended the answer says the newest version it covers, and an app above that
 * version (one no release carries is judged by its number) is told so and how to get newer ones.
 */
export async function windowAnswer(
  updatesUntil: string,
  appVersion: string | undefined,
  now: Date,
  coveredVersions: CoveredVersionsLookup,
): Promise<WindowAnswer> {
  if (updatesUntil > now.toISOString())
    return {
      fields: { updates_until: updatesUntil, update_window_ended: false },
      message: 'License is valid',
    };
  const { covered, next } = await coveredVersions(updatesUntil);
  const outside =
    appVersion !== undefined &&
    semver.valid(appVersion) !== null &&
    (covered === null || semver.gt(appVersion, covered));
  const coveredMessage = coveredVersionMessage(covered, next ?? (outside ? appVersion : null));
  return {
    fields: { updates_until: updatesUntil, update_window_ended: true, covered_version: covered },
    message: outside ? coveredMessage : `License is valid. ${coveredMessage}`,
  };
}

/**
 * The owner's license views with what an ended update window covers: the newest version released
 * inside it and the first released after it (what renewing brings), so the portal can say "Your
 * license covers versions up to 2.3. Renew updates to get 2.4 and later." Each window end is
 * looked up once.
 */
export async function withCoveredVersions(
  licenses: License[],
  coveredVersions: CoveredVersionsLookup,
): Promise<License[]> {
  const lookups = new Map<string, ReturnType<CoveredVersionsLookup>>();
  return Promise.all(
    licenses.map(async (license) => {
      if (!license.update_window_ended || license.updates_until === null) return license;
      let lookup = lookups.get(license.updates_until);
      if (!lookup) {
        lookup = coveredVersions(license.updates_until);
        lookups.set(license.updates_until, lookup);
      }
      const { covered, next } = await lookup;
      return { ...license, covered_version: covered, next_version: next };
    }),
  );
}
