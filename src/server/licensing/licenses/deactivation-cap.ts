import { randomUUID } from 'node:crypto';
import type { MachineChanges } from '../../../shared/api/licenses.js';
import { utc } from '../../../shared/dates.js';
import { findPlanRow } from '../../catalogue/index.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { ActivationRow, LicenseRow } from '../../platform/db/tables.js';
import { HttpError } from '../../platform/http-error.js';
import { longDateFormat } from '../usage/feature-usage.js';
import {
  countedDeactivations,
  forgiveDeactivations,
  insertDeactivation,
} from './deactivation-cap-repository.js';

// A plan caps how many machines a license may deactivate in a rolling 30 days, so freeing and
// activating at will does not turn one license into an office's worth. Only a customer's own
// deactivations count: a seat reclaimed from a stale machine, an organisation taking a seat back and
// an administrator's deactivation do not.

export const CHURN_WINDOW_DAYS = 30;

export const DEFAULT_DEACTIVATIONS_PER_30_DAYS = 3;

const windowStart = (now: Date) => utc(now).subtract(CHURN_WINDOW_DAYS, 'day').toISOString();

/** The license's cap, how many of it are used now, and when the next becomes possible if none is left. */
export async function machineChanges(
  db: DbOrTransaction,
  license: Pick<LicenseRow, 'id' | 'plan_id'>,
  now: Date,
): Promise<MachineChanges> {
  const plan = await findPlanRow(db, license.plan_id);
  const limit = plan?.deactivations_per_30_days ?? DEFAULT_DEACTIVATIONS_PER_30_DAYS;
  const counted = await countedDeactivations(db, license.id, windowStart(now));
  // With the cap used, the next is possible once enough of the oldest have left the window.
  const freeing = counted[counted.length - limit];
  return {
    limit,
    used: counted.length,
    window_days: CHURN_WINDOW_DAYS,
    next_possible_at:
      counted.length >= limit && freeing
        ? utc(freeing.deactivated_at).add(CHURN_WINDOW_DAYS, 'day').toISOString()
        : null,
  };
}

export const deactivationLimitReached = (changes: MachineChanges) =>
  new HttpError(
    409,
    'deactivation_limit_reached',
    changes.next_possible_at === null
      ? 'This license’s plan does not allow deactivating machines. Ask support to free the machine.'
      : `This license has deactivated ${changes.used} machine${changes.used === 1 ? '' : 's'} in the last ` +
          `${CHURN_WINDOW_DAYS} days, the most its plan allows (${changes.limit}). ` +
          `The next deactivation is possible on ${longDateFormat.format(new Date(changes.next_possible_at))}.`,
    {},
    { next_possible_at: changes.next_possible_at, limit: changes.limit, used: changes.used },
  );

/**
 * Counts a customer's deactivation of a machine against the plan's cap; answers the cap's state
 * when it is used up instead (nothing written), null when counted. Runs in the caller's
 * transaction under the license's lock, so two at once when one is left cannot both count.
 */
export async function countDeactivation(
  trx: DbOrTransaction,
  license: Pick<LicenseRow, 'id' | 'plan_id'>,
  activation: ActivationRow,
  now: Date,
): Promise<MachineChanges | null> {
  const changes = await machineChanges(trx, license, now);
  if (changes.used >= changes.limit) return changes;
  await insertDeactivation(trx, {
    id: randomUUID(),
    license_id: license.id,
    activation_id: activation.id,
    hardware_id: activation.hardware_id,
    deactivated_at: now.toISOString(),
    forgiven_at: null,
  });
  return null;
}

/**
 * An administrator's reset: the deactivations counted in the window no longer count (the caller
 * records why). Answers how many were forgiven.
 */
export const resetDeactivations = (trx: DbOrTransaction, licenseId: string, now: Date): Promise<number> =>
  forgiveDeactivations(trx, licenseId, windowStart(now), now.toISOString());
