import type { DbOrTransaction } from '../../platform/db/database.js';
import type { LicenseRow } from '../../platform/db/tables.js';
import type { LicensingEvents } from '../events.js';
import { endLicenseAt, revokeLicense } from './repository.js';

// What a refund does to the license its payment bought, as the refund asks: in the refund's
// transaction, so the license changes with the credit note or not at all.

/**
 * Revokes the license for the refund and announces it; undefined when it was revoked already
 * (nothing is announced twice).
 */
export async function revokeForRefund(
  trx: DbOrTransaction,
  events: LicensingEvents,
  licenseId: string,
  reason: string,
  now: string,
): Promise<LicenseRow | undefined> {
  const revoked = await revokeLicense(trx, licenseId, reason, now);
  if (revoked) await events.publish(trx, { type: 'license.revoked', license: revoked });
  return revoked;
}

/** Ends the license now for the refund; false when it had ended already. */
export const endForRefund = (trx: DbOrTransaction, licenseId: string, now: string): Promise<boolean> =>
  endLicenseAt(trx, licenseId, now);
