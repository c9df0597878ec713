import { planCovers } from '../../../shared/plan-coverage.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { PlanRow, UserRow } from '../../platform/db/tables.js';
import { conflict } from '../../platform/http-error.js';
import { licensesOfUser } from '../../licensing/index.js';
import { featuresOfPlans, plansByIds } from '../../catalogue/index.js';

/**
 * Refuses a subscription whose features a lifetime license the buyer owns already gives, unless
 * the buyer said they know (`confirm_lifetime_overlap`): paying monthly for what is owned for good
 * is nearly always a mistake, but not ours to forbid.
 */
export async function assertNoLifetimeOverlap(
  db: DbOrTransaction,
  user: Pick<UserRow, 'id'>,
  plan: Pick<PlanRow, 'id' | 'name'>,
  confirmed: boolean,
): Promise<void> {
  if (confirmed) return;
  const held = (await licensesOfUser(db, user.id)).filter(
    (license) => license.status === 'active' && license.expires_at === null && license.plan_id !== plan.id,
  );
  const heldPlans = (await plansByIds(db, [...new Set(held.map((license) => license.plan_id))])).filter(
    (row) => row.billing_interval === 'lifetime',
  );
  if (heldPlans.length === 0) return;
  const features = await featuresOfPlans(db, [plan.id, ...heldPlans.map((row) => row.id)]);
  const wanted = features.get(plan.id) ?? [];
  const covering = heldPlans.find((row) => planCovers(features.get(row.id) ?? [], wanted));
  if (covering)
    throw conflict(
      'lifetime_license_owned',
      `Your lifetime ${covering.name} license already includes everything in ${plan.name}. To subscribe anyway, confirm that you want both.`,
    );
}
