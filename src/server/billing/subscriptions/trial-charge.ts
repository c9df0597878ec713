import type { DbOrTransaction } from '../../platform/db/database.js';
import { findPlanIn } from '../../catalogue/index.js';
import type { TreatmentSettings } from '../invoices/tax-treatment.js';
import { createCyclePricing } from './cycle-amount.js';
import { findSubscription } from './repository.js';

/**
 * What a card trial's subscription will charge first, and when, for licensing's trial reminders
 * (handed to licensing at composition, `app.ts`, since licensing may not use billing). Undefined
 * once no first charge is coming: the trial was canceled, its charge failed or was made already,
 * or a provider's charge was awaited past the grace period.
 */
export function createTrialCharge(settings: TreatmentSettings) {
  const pricing = createCyclePricing(settings);
  return async (db: DbOrTransaction, subscriptionId: string, now: Date) => {
    const row = await findSubscription(db, subscriptionId);
    if (
      !row ||
      row.trial_ends_at === null ||
      row.status !== 'active' ||
      row.cycles !== 0 ||
      row.cancel_at_period_end !== 0 ||
      (row.grace_ends_at !== null && row.grace_ends_at <= now.toISOString())
    )
      return undefined;
    const plan = await findPlanIn(db, row.plan_id, row.currency);
    if (!plan) return undefined;
    const { amountMinor } = await pricing.amountOf(db, row, plan, 1);
    return { amountMinor, currency: plan.currency, at: row.current_period_end ?? row.trial_ends_at };
  };
}
