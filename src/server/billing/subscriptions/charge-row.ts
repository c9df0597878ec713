import { randomUUID } from 'node:crypto';
import type { PaymentRow, PlanRow, SubscriptionRow } from '../../platform/db/tables.js';
import { anchorOf, type BillingPeriod, periodOfCycle, type RecurringInterval } from './billing-periods.js';

// A subscription's charge is one payment row per cycle, keyed by the provider's subscription and
// the cycle, so every report of it (the checkout, a webhook, the sandbox) finds the same row.

/** What a charge report says, whoever reports it (the checkout, a webhook, the sandbox). */
export interface ChargeReport {
  subscriptionId: string;
  /** Which paid period this is: 1 for the first charge, then one more per renewal. */
  cycle: number;
  providerPaymentId: string;
  amountMinor: number;
  currency: string;
  /** How the customer paid, as shown to them. */
  paymentMethod?: string;
}

/** The key of one charge: the provider's subscription and the cycle, alike for every report of it. */
export const chargeKey = (subscription: Pick<SubscriptionRow, 'provider_subscription_id'>, cycle: number) =>
  `${subscription.provider_subscription_id}#${cycle}`;

function recurringInterval(plan: PlanRow): RecurringInterval {
  if (plan.billing_interval !== 'month' && plan.billing_interval !== 'year')
    throw new Error(`plan ${plan.code} is not billed monthly or yearly`);
  return plan.billing_interval;
}

/** The period of a cycle; the first charge of a new subscription (or after a plan change) sets the anchor. */
export function periodFor(
  subscription: SubscriptionRow,
  plan: PlanRow,
  cycle: number,
  now: Date,
): BillingPeriod {
  const anchor = anchorOf(subscription) ?? { anchorAt: now.toISOString(), anchorCycle: cycle - 1 };
  return periodOfCycle(anchor, recurringInterval(plan), cycle);
}

/** The payment row of one charge as first reported (claimed, or marked failed, afterwards). */
export function newChargeRow(
  subscription: SubscriptionRow,
  plan: PlanRow,
  cycle: number,
  period: BillingPeriod,
  price: { amountMinor: number; currency: string },
  now: Date,
): PaymentRow {
  return {
    id: randomUUID(),
    user_id: subscription.user_id,
    plan_id: plan.id,
    provider: subscription.provider,
    provider_order_id: chargeKey(subscription, cycle),
    provider_payment_id: null,
    amount_minor: price.amountMinor,
    currency: price.currency,
    status: 'created',
    license_id: subscription.license_id,
    failure_reason: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    paid_at: null,
    subscription_id: subscription.id,
    kind: 'subscription',
    period_start: period.start,
    period_end: period.end,
  };
}
