import type { PlanRow } from '../../platform/db/tables.js';

/**
 * Whether a plan offers a free trial without a card: days set by the administrators, and neither a
 * free plan (nothing to try) nor an organisation's per-seat plan (bought for a team, not tried).
 */
export const offersTrial = (plan: PlanRow): boolean =>
  plan.trial_days > 0 && plan.billing_interval !== 'free' && plan.seat_based !== 1;
