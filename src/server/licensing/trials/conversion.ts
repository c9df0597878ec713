import type { Clock } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { LicenseRow, PlanRow } from '../../platform/db/tables.js';
import type { LicensingEvents } from '../events.js';
import { updatesUntilFor } from '../licenses/update-windows.js';
import { convertTrialLicense } from './repository.js';

/**
 * Buying a plan while on its trial: the trial license becomes the paid one, with its key, machines
 * and usage, and its first paid period starts now, at the conversion (`expiresAt`, null for a
 * lifetime plan); a perpetual plan's update window too. Undefined when the buyer has no trial of
 * the plan to convert.
 */
export async function convertTrial(
  trx: DbOrTransaction,
  clock: Clock,
  events: LicensingEvents,
  buyer: { userId: string; plan: PlanRow; subscriptionId: string | null; expiresAt: string | null },
): Promise<LicenseRow | undefined> {
  const now = clock.now();
  const converted = await convertTrialLicense(
    trx,
    { userId: buyer.userId, planId: buyer.plan.id },
    {
      expires_at: buyer.expiresAt,
      subscription_id: buyer.subscriptionId,
      updates_until: updatesUntilFor(buyer.plan, now),
      at: now.toISOString(),
    },
  );
  if (converted) await events.publish(trx, { type: 'license.trial_converted', license: converted });
  return converted;
}
