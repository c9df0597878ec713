import type { DbOrTransaction } from '../../platform/db/database.js';
import type { ActivationRow, LicenseRow } from '../../platform/db/tables.js';
import type { LicensingEvents } from '../events.js';
import { deactivateActivation, revokeLicense, updateActivation, updateLicense } from './repository.js';

// What an administrator may do to a license and its machines, in the caller's transaction, which
// checks the rules first and records the administrator's action after.

/** The fields of a license an administrator changes: its status, expiry, plan, seat limit and update window. */
export type AdministratorChanges = Partial<
  Pick<LicenseRow, 'status' | 'expires_at' | 'max_activations' | 'plan_id' | 'updates_until'>
>;

/**
 * Applies an administrator's changes and announces them (`license.updated`, and
 * `license.suspended` when they suspend it). Answers the license after, undefined when it is gone.
 */
export async function changeByAdministrator(
  trx: DbOrTransaction,
  events: LicensingEvents,
  licenseId: string,
  changes: AdministratorChanges,
  now: string,
): Promise<LicenseRow | undefined> {
  const updated = await updateLicense(trx, licenseId, { ...changes, updated_at: now });
  if (updated) {
    await events.publish(trx, { type: 'license.updated', license: updated });
    if (changes.status === 'suspended')
      await events.publish(trx, { type: 'license.suspended', license: updated });
  }
  return updated;
}

/**
 * Revokes a license for good, unless it already is (undefined then). Not announced here: the
 * administrator's action is recorded first, and the caller announces it after.
 */
export const revokeByAdministrator = (
  trx: DbOrTransaction,
  licenseId: string,
  reason: string,
  now: string,
): Promise<LicenseRow | undefined> => revokeLicense(trx, licenseId, reason, now);

/**
 * Frees the seat of a machine an administrator deactivates and announces it, with the license
 * owner's id; the machine is told so at its next check.
 */
export async function deactivateByAdministrator(
  trx: DbOrTransaction,
  events: LicensingEvents,
  activation: ActivationRow,
  ownerId: string,
  at: string,
): Promise<void> {
  await deactivateActivation(trx, activation.id, at, 'admin');
  await events.publish(trx, {
    type: 'activation.deleted',
    activation: { ...activation, deactivated_at: at, deactivated_reason: 'admin' },
    userId: ownerId,
  });
}

/** Names a machine (null drops the name), as its owner may. */
export async function renameMachine(
  trx: DbOrTransaction,
  activationId: string,
  label: string | null,
): Promise<void> {
  await updateActivation(trx, activationId, { label });
}
