import type { DbOrTransaction } from '../../platform/db/database.js';
import { endMemberFloatingSeats } from '../organisations/seat-take-back.js';
import { lockOrganisation } from '../organisations/seats-repository.js';
import {
  leaveOrganisations,
  licensesOfUser,
  machinesOfUser,
  membershipsOfUser,
  organisationsOwnedBy,
  revokeLicensesOfUser,
} from './repository.js';

/** What licensing holds of an account, for the account's data export. */
export async function licensingDataOfUser(db: DbOrTransaction, userId: string) {
  const [licenses, machines, organisations] = await Promise.all([
    licensesOfUser(db, userId),
    machinesOfUser(db, userId),
    membershipsOfUser(db, userId),
  ]);
  return {
    licenses: licenses.map((license) => ({
      ...license,
      metadata: license.metadata === null ? null : (JSON.parse(license.metadata) as unknown),
    })),
    machines,
    organisations,
  };
}

/** The organisations an account owns: it must hand each over before it can be deleted. */
export const ownedOrganisations = (db: DbOrTransaction, userId: string) => organisationsOwnedBy(db, userId);

/** Why a license ended with its account, as the license's revocation reason says. */
export const ACCOUNT_ERASED_REASON = 'account_erased';

/**
 * Licensing's part of an account's erasure, heard on identity's `account.erasing`: the floating
 * seats its machines hold in organisations' pools come back at once (each under the
 * organisation's lock, then its license's, as a removal frees them, and before anything else here
 * locks a license), its licenses end (machines stop at their next check) and it leaves the
 * organisations it was a member of.
 */
export async function endLicensingOfErasedAccount(trx: DbOrTransaction, userId: string, now: string) {
  for (const { organisation_id } of await membershipsOfUser(trx, userId)) {
    await lockOrganisation(trx, organisation_id);
    await endMemberFloatingSeats(trx, organisation_id, userId);
  }
  await revokeLicensesOfUser(trx, userId, ACCOUNT_ERASED_REASON, now);
  await leaveOrganisations(trx, userId);
}
