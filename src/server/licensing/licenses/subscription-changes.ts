import type { DbOrTransaction } from '../../platform/db/database.js';
import type { LicenseRow, PlanRow } from '../../platform/db/tables.js';
import { findLicenseById, updateLicense } from './repository.js';
import { longDateFormat } from '../usage/feature-usage.js';

// What a subscription's life does to its license besides paid periods (period-grants.ts), each in
// the caller's transaction so it commits with the subscription's change. `now` is the caller's
// moment of that change, so the license and the subscription carry the same updated_at.

/** The message a license suspended for an unpaid subscription gives its app and its owner. */
const unpaidSuspensionReason = (graceEndedAt: string) =>
  `This license is suspended: the subscription's payment failed and the grace period ended on ` +
  `${longDateFormat.format(new Date(graceEndedAt))}. Update the payment method on the Subscriptions ` +
  `page to restore it.`;

/**
 * Keeps a license that expires with its period valid until `graceEndsAt`, while a provider's
 * renewal report is awaited; a license that never expires, or runs later already, is left alone.
 */
export async function holdUntilRenewalReported(
  trx: DbOrTransaction,
  licenseId: string,
  graceEndsAt: string,
  now: string,
): Promise<void> {
  const license = await findLicenseById(trx, licenseId);
  if (license && license.expires_at !== null && license.expires_at < graceEndsAt)
    await updateLicense(trx, license.id, { expires_at: graceEndsAt, updated_at: now });
}

/**
 * Suspends an active license because its subscription's grace period ended unpaid (grantPeriod
 * lifts it when a charge comes). Answers the license as it stands after: suspended, or as it was
 * when it was not active; undefined when there is no such license.
 */
export async function suspendForNonPayment(
  trx: DbOrTransaction,
  licenseId: string,
  graceEndedAt: string,
  now: string,
): Promise<LicenseRow | undefined> {
  const license = await findLicenseById(trx, licenseId);
  let suspended: LicenseRow | undefined;
  if (license && license.status === 'active') {
    suspended = await updateLicense(trx, license.id, {
      status: 'suspended',
      suspended_reason: unpaidSuspensionReason(graceEndedAt),
      updated_at: now,
    });
  }
  return suspended ?? license;
}

/** Ends a license at `endedAt` when its subscription ended before the license would have. */
export async function endWithSubscription(
  trx: DbOrTransaction,
  licenseId: string,
  endedAt: string,
  now: string,
): Promise<void> {
  const license = await findLicenseById(trx, licenseId);
  if (license && (license.expires_at === null || license.expires_at > endedAt))
    await updateLicense(trx, license.id, { expires_at: endedAt, updated_at: now });
}

/**
 * Moves a license to the plan its subscription changed to: the plan's seats, and an expiry at the
 * new period's end, earlier too.
 */
export async function followPlanChange(
  trx: DbOrTransaction,
  licenseId: string,
  plan: PlanRow,
  periodEnd: string,
  now: string,
): Promise<void> {
  await updateLicense(trx, licenseId, {
    plan_id: plan.id,
    max_activations: plan.max_activations,
    expires_at: periodEnd,
    updated_at: now,
  });
}

/**
 * Moves a license's expiry `shift` milliseconds back with its subscription's dates (the sandbox
 * bringing an end forward); a license that never expires is left alone.
 */
export async function moveExpiryBack(
  trx: DbOrTransaction,
  licenseId: string,
  shift: number,
  now: string,
): Promise<void> {
  const license = await findLicenseById(trx, licenseId);
  if (license?.expires_at)
    await updateLicense(trx, license.id, {
      expires_at: new Date(Date.parse(license.expires_at) - shift).toISOString(),
      updated_at: now,
    });
}

/**
 * Pauses an active license with its subscription, whose paid period has ended: it reads `paused`
 * until `resumesAt` (its app and its owner are told when it resumes). A license that is not active
 * (revoked, suspended meanwhile) is left as it is. Answers the license as it stands after.
 */
export async function pauseWithSubscription(
  trx: DbOrTransaction,
  licenseId: string,
  resumesAt: string,
  now: string,
): Promise<LicenseRow | undefined> {
  const license = await findLicenseById(trx, licenseId);
  if (!license || (license.status !== 'active' && license.status !== 'paused')) return license;
  return updateLicense(trx, license.id, { status: 'paused', paused_until: resumesAt, updated_at: now });
}

/**
 * Ends a license's pause (its subscription resumed, or ended while paused): it is active again and
 * valid until `validUntil` (the provider's renewal awaited, or the moment the pause ended, which a
 * charge then moves on); without it the expiry stays (an ended subscription's license reads expired).
 */
export async function endLicensePause(
  trx: DbOrTransaction,
  licenseId: string,
  validUntil: string | undefined,
  now: string,
): Promise<LicenseRow | undefined> {
  const license = await findLicenseById(trx, licenseId);
  if (!license || license.status !== 'paused') return license;
  return updateLicense(trx, license.id, {
    status: 'active',
    paused_until: null,
    ...(validUntil !== undefined ? { expires_at: validUntil } : {}),
    updated_at: now,
  });
}
