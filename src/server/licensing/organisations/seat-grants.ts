import type { LicensingEvents } from '../events.js';
import type { Clock } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { LicenseRow, PlanRow, SubscriptionRow } from '../../platform/db/tables.js';
import { issueLicense } from '../licenses/issue.js';
import { updateLicense } from '../licenses/repository.js';
import { findOwner } from './repository.js';
import { countSeatsTaken, lockOrganisation, seatMemberIfUnseated } from './seats-repository.js';

/**
 * The license an organisation's first charge issues: its seats, room for every seat's machines,
 * held by the owner (who is seated at once, so the buyer can use what they bought). Runs in the
 * transaction that settles the charge, under the organisation's lock.
 */
export async function issueOrganisationLicense(
  trx: DbOrTransaction,
  clock: Clock,
  events: LicensingEvents,
  subscription: SubscriptionRow,
  plan: PlanRow,
  expiresAt: string,
): Promise<LicenseRow> {
  const organisationId = subscription.organisation_id;
  if (organisationId === null) throw new Error(`subscription ${subscription.id} is not an organization's`);
  await lockOrganisation(trx, organisationId);
  const owner = await findOwner(trx, organisationId);
  if (!owner) throw new Error(`organization ${organisationId} has no owner`);
  const ownerId = owner.user_id;
  const license = await issueLicense(trx, clock, events, {
    userId: ownerId,
    plan,
    subscriptionId: subscription.id,
    expiresAt,
    maxActivations: subscription.seats * plan.max_activations,
    organisation: { id: organisationId, seats: subscription.seats },
    metadata: { subscription_id: subscription.id, organisation_id: organisationId },
  });
  // Invitations still pending from an earlier license were promised their seats first.
  const { held, pending } = await countSeatsTaken(trx, organisationId, clock.now().toISOString());
  if (held + pending < subscription.seats)
    await seatMemberIfUnseated(trx, organisationId, ownerId, clock.now().toISOString());
  return license;
}

/**
 * Gives an organisation's license the seats bought: each seat brings the machines the plan gives
 * a seat. Runs in the transaction that charges them, under the organisation's lock.
 */
export async function setSeats(
  trx: DbOrTransaction,
  clock: Clock,
  license: Pick<LicenseRow, 'id'>,
  { seats, machinesPerSeat }: { seats: number; machinesPerSeat: number },
): Promise<void> {
  await updateLicense(trx, license.id, {
    seats,
    max_activations: seats * machinesPerSeat,
    updated_at: clock.now().toISOString(),
  });
}
