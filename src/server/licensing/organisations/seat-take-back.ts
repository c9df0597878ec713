import type { Clock } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import { deactivateActivation } from '../licenses/repository.js';
// eslint-disable-next-line boundaries/dependencies -- debt of the move into contexts (docs/architecture.md)
import { activationEventData } from '../../integrations/webhooks/event-data.js';
// eslint-disable-next-line boundaries/dependencies -- debt of the move into contexts (docs/architecture.md)
import { queueWebhookEvent } from '../../integrations/webhooks/queue.js';
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
  organisationId: string,
  userId: string,
): Promise<number> {
  const license = await findOrganisationLicense(trx, organisationId);
  if (!license) return 0;
  const machines = await activeMachinesOf(trx, license.id, [userId]);
  const at = clock.now().toISOString();
  for (const machine of machines) {
    await deactivateActivation(trx, machine.id, at, 'seat_removed');
    await queueWebhookEvent(trx, clock, {
      type: 'activation.deleted',
      data: activationEventData(
        { ...machine, deactivated_at: at, deactivated_reason: 'seat_removed' },
        license.user_id,
      ),
    });
  }
  return machines.length;
}
