import { laterMoment } from '../../../shared/dates.js';
import type { Clock } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { LicenseRow, PaymentRow, PlanRow, SubscriptionRow } from '../../platform/db/tables.js';
import type { LicensingEvents } from '../events.js';
import { issueOrganisationLicense } from '../organisations/seat-grants.js';
import { convertTrial } from '../trials/conversion.js';
import { issueLicense } from './issue.js';
import { expiryAfterInterval } from './periods.js';
import {
  activePaidLicensesOfPlan,
  extendLicenseIfUnchanged,
  findLicenseById,
  updateLicense,
} from './repository.js';
import { renewUpdates } from './update-windows.js';
import { effectiveStatus } from './views.js';

/** The paid period of a subscription's charge. */
export interface SubscriptionPeriodGrant {
  /** The subscription whose charge paid the period (its license, if it has one yet, is granted). */
  subscription: SubscriptionRow;
  plan: PlanRow;
  period: PaidPeriod;
  /** The license came from a replaced subscription: it moves to this plan and ends with this period. */
  takenOver?: boolean;
}

/** A one-off payment of a plan, by a buyer whose account still exists. */
export interface OrderGrant {
  order: Pick<PaymentRow, 'id' | 'provider_order_id'> & { user_id: string };
  plan: PlanRow;
}

export type PeriodGrant = SubscriptionPeriodGrant | OrderGrant;

/** When a paid period starts and ends. */
export interface PaidPeriod {
  start: string;
  end: string;
}

/** The license a payment was granted, and the period it bought (null for a lifetime). */
export interface GrantedPeriod {
  license: LicenseRow;
  period: PaidPeriod | null;
}

/**
 * License time for a payment, the one way billing grants it. A subscription's charge pays its
 * period: the first issues the license (an organisation's, with its seats and the owner seated), a
 * later one extends it to the period's end (never back) and lifts a suspension for an unpaid
 * subscription; a revoked license stays revoked. A license taken over ends with the new period, as
 * the old one's unused part is refunded. A one-off order runs the buyer's active license of the plan
 * one more interval, or issues one when there is none (or the plan never expires).
 * A buyer on a trial of the plan (a personal one) is sold that license instead: its key, machines
 * and usage stay, and the paid time starts at the conversion. An update renewal, once or by
 * subscription, moves the buyer's perpetual license's update window on (update-windows.ts).
 */
export async function grantPeriod(
  trx: DbOrTransaction,
  clock: Clock,
  events: LicensingEvents,
  grant: PeriodGrant,
): Promise<GrantedPeriod> {
  if ('order' in grant) return grantOrder(trx, clock, events, grant);
  const { subscription, plan } = grant;
  // A yearly (or monthly) subscription of an update renewal: each charge moves the window of the
  // buyer's perpetual license on, as a one-off renewal does; the subscription holds no license.
  if (plan.renews_updates_of !== null && subscription.user_id)
    return renewUpdates(trx, clock, events, subscription.user_id, plan);
  return { license: await grantSubscriptionPeriod(trx, clock, events, grant), period: grant.period };
}

async function grantSubscriptionPeriod(
  trx: DbOrTransaction,
  clock: Clock,
  events: LicensingEvents,
  { subscription, plan, period, takenOver = false }: SubscriptionPeriodGrant,
): Promise<LicenseRow> {
  const periodEnd = period.end;
  const current = subscription.license_id ? await findLicenseById(trx, subscription.license_id) : undefined;
  if (!current) {
    // The buyer's trial of the plan becomes the subscription's license, its paid time from now.
    const converted =
      subscription.organisation_id === null && subscription.user_id
        ? await convertTrial(trx, clock, events, {
            userId: subscription.user_id,
            plan,
            subscriptionId: subscription.id,
            expiresAt: periodEnd,
          })
        : undefined;
    if (converted) return converted;
    if (subscription.organisation_id !== null)
      return issueOrganisationLicense(trx, clock, events, subscription, plan, periodEnd);
    if (!subscription.user_id) throw new Error(`subscription ${subscription.id} has no owner`);
    return issueLicense(trx, clock, events, {
      userId: subscription.user_id,
      plan,
      subscriptionId: subscription.id,
      expiresAt: periodEnd,
      metadata: { subscription_id: subscription.id },
    });
  }
  const lift =
    (current.status === 'suspended' && current.suspended_reason !== null) || current.status === 'paused';
  const updated = await updateLicense(trx, current.id, {
    expires_at: takenOver ? periodEnd : laterMoment(current.expires_at, periodEnd),
    ...(takenOver
      ? { plan_id: plan.id, max_activations: plan.max_activations, subscription_id: subscription.id }
      : {}),
    ...(lift ? { status: 'active', suspended_reason: null, paused_until: null } : {}),
    updated_at: clock.now().toISOString(),
  });
  if (!updated) throw new Error(`license ${current.id} is gone`);
  return updated;
}

async function grantOrder(
  trx: DbOrTransaction,
  clock: Clock,
  events: LicensingEvents,
  { order, plan }: OrderGrant,
): Promise<GrantedPeriod> {
  if (plan.renews_updates_of !== null) return renewUpdates(trx, clock, events, order.user_id, plan);
  const now = clock.now();
  const converted = await convertTrial(trx, clock, events, {
    userId: order.user_id,
    plan,
    subscriptionId: null,
    expiresAt: expiryAfterInterval(plan.billing_interval, now),
  });
  if (converted)
    return {
      license: converted,
      period: converted.expires_at ? { start: now.toISOString(), end: converted.expires_at } : null,
    };
  const extended = await extendByInterval(trx, clock, order.user_id, plan);
  if (extended)
    return {
      license: extended.license,
      period: extended.license.expires_at
        ? { start: extended.from.toISOString(), end: extended.license.expires_at }
        : null,
    };
  const license = await issueLicense(trx, clock, events, {
    userId: order.user_id,
    plan,
    metadata: { payment_id: order.id, order_id: order.provider_order_id },
  });
  return {
    license,
    period: license.expires_at ? { start: license.created_at, end: license.expires_at } : null,
  };
}

/** Keeps a license valid through a grace period after a failed charge (never shortens it). */
export async function extendThroughGrace(
  trx: DbOrTransaction,
  clock: Clock,
  licenseId: string,
  graceEndsAt: string,
): Promise<void> {
  const license = await findLicenseById(trx, licenseId);
  if (license)
    await updateLicense(trx, license.id, {
      expires_at: laterMoment(license.expires_at, graceEndsAt),
      updated_at: clock.now().toISOString(),
    });
}

/** Optimistic retries of an extension that raced another one on the same license. */
const EXTENSION_ATTEMPTS = 5;

/**
 * A one-off payment of a monthly or yearly plan: the buyer's active license of the plan runs one
 * more interval, from its expiry or from now if that is later. Answers the extended license and
 * where its new period starts; undefined when there is no such license to extend (or other
 * payments kept extending it first), and one is issued instead.
 */
async function extendByInterval(
  trx: DbOrTransaction,
  clock: Clock,
  userId: string,
  plan: PlanRow,
): Promise<{ license: LicenseRow; from: Date } | undefined> {
  const interval = plan.billing_interval;
  if (interval !== 'month' && interval !== 'year') return undefined;
  for (let attempt = 0; attempt < EXTENSION_ATTEMPTS; attempt++) {
    const now = clock.now();
    const active = await activePaidLicensesOfPlan(trx, userId, plan.id);
    const current = active.find((row) => effectiveStatus(row, now) === 'active');
    if (!current) break;
    const from =
      current.expires_at && Date.parse(current.expires_at) > now.getTime()
        ? new Date(current.expires_at)
        : now;
    // Only if unchanged since it was read: another payment extending it at the same moment retries.
    const extended = await extendLicenseIfUnchanged(trx, current.id, current.expires_at, {
      expires_at: expiryAfterInterval(interval, from),
      updated_at: now.toISOString(),
    });
    if (extended) return { license: extended, from };
  }
  return undefined;
}
