import { randomToken } from '../../platform/crypto.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { SubscriptionRow } from '../../platform/db/tables.js';
import { findPlanRow } from '../../catalogue/index.js';
import type { SubscriptionCharges } from './charges.js';
import { updateSubscription } from './repository.js';

export const SANDBOX_DECLINE_REASON = 'The sandbox card declined the charge (no money moved)';
export const SANDBOX_PAYMENT_METHOD = 'Sandbox card •••• 4242';
export const SANDBOX_DECLINING_METHOD = 'Sandbox card •••• 0002 (declines every charge)';

export const sandboxPaymentId = () => `pay_sandbox_${randomToken(12)}`;

/**
 * The sandbox's stand-in for the provider charging a renewal: the customer's sandbox card pays the
 * next cycle (less any kept balance) or declines it, and the outcome is settled as a provider's
 * report would be.
 */
export async function chargeSandboxRenewal(
  trx: DbOrTransaction,
  charges: SubscriptionCharges,
  subscription: SubscriptionRow,
): Promise<'paid' | 'failed' | 'unchanged'> {
  const plan = await findPlanRow(trx, subscription.plan_id);
  if (!plan) throw new Error(`plan ${subscription.plan_id} is gone`);
  const cycle = subscription.cycles + 1;
  const { amountMinor, balanceAfterMinor } = await charges.pricing.amountOf(trx, subscription, plan, cycle);
  if (subscription.sandbox_card === 'declines' && amountMinor > 0) {
    const failed = await charges.fail(trx, {
      subscriptionId: subscription.id,
      cycle,
      providerPaymentId: sandboxPaymentId(),
      reason: SANDBOX_DECLINE_REASON,
      amountMinor,
    });
    return failed ? 'failed' : 'unchanged';
  }
  const settled = await charges.settle(
    trx,
    {
      subscriptionId: subscription.id,
      cycle,
      providerPaymentId: sandboxPaymentId(),
      amountMinor,
      currency: plan.currency,
    },
    { plan },
  );
  if (settled.outcome !== 'paid') return 'unchanged';
  if (balanceAfterMinor !== subscription.credit_minor)
    await updateSubscription(trx, subscription.id, { credit_minor: balanceAfterMinor });
  return 'paid';
}
