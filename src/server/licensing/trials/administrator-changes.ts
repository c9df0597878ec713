import { laterMoment, utc } from '../../../shared/dates.js';
import type { Clock } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { LicenseRow } from '../../platform/db/tables.js';
import { conflict, notFound } from '../../platform/http-error.js';
import type { LicensingEvents } from '../events.js';
import { findLicenseById, lockLicense } from '../licenses/repository.js';
import { setTrialEnd } from './repository.js';

/** An administrator's change to a trial: more days (from its end, or from now once it ended), or an end now. */
export type TrialChange = { action: 'extend'; days: number } | { action: 'end' };

/**
 * Extends or ends a license's free trial in the caller's transaction, announcing `license.updated`
 * (the end's own `license.trial_expired` follows from the trial notices). A license that is not a
 * trial (bought, or never one), a revoked one, or a trial that has already ended when asked to end,
 * is refused with a 409. Answers the license before and after.
 */
export async function changeTrialByAdministrator(
  trx: DbOrTransaction,
  clock: Clock,
  events: LicensingEvents,
  licenseId: string,
  change: TrialChange,
): Promise<{ before: LicenseRow; after: LicenseRow }> {
  await lockLicense(trx, licenseId);
  const before = await findLicenseById(trx, licenseId);
  if (!before) throw notFound('license_not_found', 'License not found');
  if (before.trial_ends_at === null)
    throw conflict(
      'license_not_trial',
      'This license is not a free trial (it was bought, or never was one): change its expiry instead.',
    );
  if (before.status !== 'active')
    throw conflict(
      'license_not_active',
      `This trial's license is ${before.status}; its trial cannot be changed.`,
    );
  const now = clock.now();
  const nowIso = now.toISOString();
  let endsAt: string;
  if (change.action === 'extend') {
    endsAt = utc(laterMoment(before.trial_ends_at, nowIso)).add(change.days, 'day').toISOString();
  } else {
    if (before.trial_ends_at <= nowIso)
      throw conflict('trial_already_ended', 'This free trial has already ended.');
    endsAt = nowIso;
  }
  const after = await setTrialEnd(trx, licenseId, endsAt, nowIso);
  if (!after) throw conflict('license_not_trial', 'This license is not a free trial any more.');
  await events.publish(trx, { type: 'license.updated', license: after });
  return { before, after };
}
