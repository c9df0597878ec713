import { SANDBOX_DECLINE_REASON, sandboxPaymentId } from './sandbox-card.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { SubscriptionRow } from '../../platform/db/tables.js';
import { couponOfSubscription, findPlanIn } from '../../catalogue/index.js';
import { findLicenseById, overageOwed } from '../../licensing/index.js';
import type { SubscriptionCharges } from './charges.js';
import { updateSubscription } from './repository.js';

/**
 * The sandbox's stand-in for the provider charging a renewal: the customer's sandbox card pays the
 * next cycle (less any kept balance) with the overage of every usage period ended and not yet
 * billed, or declines it, and the outcome is settled as a provider's report would be.
 */
export async function chargeSandboxRenewal(
  trx: DbOrTransaction,
  charges: SubscriptionCharges,
  subscription: SubscriptionRow,
): Promise<'paid' | 'failed' | 'unchanged'> {
  const plan = await findPlanIn(trx, subscription.plan_id, subscription.currency);
  if (!plan) throw new Error(`plan ${subscription.plan_id} is gone`);
  // Read once, for the price and the invoice alike.
  const coupon = (await couponOfSubscription(trx, subscription.coupon_id)) ?? null;
  const cycle = subscription.cycles + 1;
  const { amountMinor: cycleMinor, balanceAfterMinor } = await charges.pricing.amountOf(
    trx,
    subscription,
    plan,
    cycle,
    coupon,
  );
  const license = subscription.license_id ? await findLicenseById(trx, subscription.license_id) : undefined;
  const overage = license ? await overageOwed(trx, license, subscription.created_at, charges.now()) : [];
  const amountMinor =
    cycleMinor +
    charges.pricing.overageGross(
      overage.map((owed) => owed.amountMinor),
      await charges.pricing.taxOf(trx, subscription),
    );
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
  const settled = await charges.settle(trx, {
    kind: 'cycle',
    report: {
      subscriptionId: subscription.id,
      cycle,
      providerPaymentId: sandboxPaymentId(),
      amountMinor,
      currency: plan.currency,
    },
    rows: { plan, coupon },
    overage,
  });
  if (settled.outcome !== 'paid') return 'unchanged';
  if (balanceAfterMinor !== subscription.credit_minor)
    await updateSubscription(trx, subscription.id, { credit_minor: balanceAfterMinor });
  return 'paid';
}
