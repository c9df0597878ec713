import type { LicensingEvents } from '../events.js';
import type { Clock } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import { deleteMemberSeats } from '../floating/repository.js';
import { deactivateActivation, lockLicense } from '../licenses/repository.js';
import { activeMachinesOf } from './repository.js';
import { findOrganisationLicense } from './seats-repository.js';

/**
 * Ends a member's machines on the organisation's license when their seat goes (taken back,
 * removed, left), in the caller's transaction: their next license check is refused with the
 * reason, and an offline machine stops when its lease runs out. Answers how many machines ended.
 */
export async function endSeatMachines(
  trx: DbOrTransaction,
  clock: Clock,
  events: LicensingEvents,
  organisationId: string,
  userId: string,
): Promise<number> {
  const license = await findOrganisationLicense(trx, organisationId);
  if (!license) return 0;
  const machines = await activeMachinesOf(trx, license.id, [userId]);
  const at = clock.now().toISOString();
  for (const machine of machines) {
    await deactivateActivation(trx, machine.id, at, 'seat_removed');
    await events.publish(trx, {
      type: 'activation.deleted',
      activation: { ...machine, deactivated_at: at, deactivated_reason: 'seat_removed' },
      userId: license.user_id,
    });
  }
  return machines.length;
}

/**
 * Frees the floating seats a member's machines hold on the organisation's license when they leave
 * or are removed, under the license's lock (after the organisation's, the order every seat
 * decision takes): a checkout of theirs racing it either took its seat first, freed here, or
 * waits and finds them no member. Answers how many seats came back.
 */
export async function endMemberFloatingSeats(
  trx: DbOrTransaction,
  organisationId: string,
  userId: string,
): Promise<number> {
  const license = await findOrganisationLicense(trx, organisationId);
  if (!license) return 0;
  await lockLicense(trx, license.id);
  return (await deleteMemberSeats(trx, license.id, userId)).length;
}
