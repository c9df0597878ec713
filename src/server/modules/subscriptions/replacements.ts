import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { PlanChangeQuote } from '../../../shared/api/subscriptions.js';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/database.js';
import type { PlanRow, SubscriptionRow } from '../../db/tables.js';
import type { RecurringInterval } from './billing-periods.js';
import { pendingSubscriptionRow } from './new-subscription.js';
import { type ProviderSubscriptions, TOTAL_CYCLES } from './provider-plans.js';
import {
  findSubscription,
  insertSubscription,
  paidChargeOfPeriod,
  replacedAwaitingCloseOut,
  updateSubscription,
} from './repository.js';

/** Razorpay's statuses of a subscription that charges no more. */
const ENDED_AT_PROVIDER = new Set(['cancelled', 'completed', 'expired']);

/** Refunds part of a payment once under `refundId`, however often asked (the invoices area's refunds). */
export type RefundCredit = (input: {
  paymentId: string;
  amountMinor: number;
  reason: string;
  refundId: string;
}) => Promise<void>;

/**
 * Razorpay plan changes by replacement: a new subscription to the new plan, paid in full through
 * Checkout, takes over the license when its first charge is paid (charges.ts). The replaced one is
 * then closed at Razorpay: cancelled there (no further charge), and the credit quoted for its unused
 * period refunded to the card it was paid with. Closing is retried by the scheduler until both are
 * done, and each step is idempotent, so a crash or Razorpay's refusal delays it but repeats nothing.
 */
export function createReplacements({
  db,
  clock,
  providers,
  refundCredit,
  log,
}: {
  db: Db;
  clock: Clock;
  providers: ProviderSubscriptions;
  refundCredit: RefundCredit;
  log: FastifyBaseLogger;
}) {
  /** Cancels at Razorpay now; one Razorpay already ended (or we did, before a crash) counts as done. */
  async function cancelAtProvider(row: SubscriptionRow): Promise<void> {
    try {
      await providers.call((gateway) => gateway.cancelSubscription(row.provider_subscription_id, false));
    } catch (error) {
      const status = await providers.call((gateway) => gateway.statusOf(row.provider_subscription_id));
      if (!ENDED_AT_PROVIDER.has(status)) throw error;
    }
  }

  async function closeOut(id: string): Promise<boolean> {
    const row = await findSubscription(db, id);
    if (!row || row.closeout_refund_minor === null || row.provider_closed_at !== null) return false;
    await cancelAtProvider(row);
    if (row.closeout_refund_minor > 0 && row.current_period_end) {
      const paid = await paidChargeOfPeriod(db, row.id, row.current_period_end);
      if (paid)
        await refundCredit({
          paymentId: paid.id,
          amountMinor: row.closeout_refund_minor,
          reason: 'Unused part of the period, credited on a plan change',
          // One refund per replaced subscription, however many times closing is tried.
          refundId: `plan-change-${row.id}`,
        });
    }
    await updateSubscription(db, row.id, { provider_closed_at: clock.now().toISOString() });
    return true;
  }

  return {
    /** Opens the new subscription that replaces `row` when its first charge is paid. */
    async open(
      row: SubscriptionRow,
      plan: PlanRow & { billing_interval: RecurringInterval },
      quote: PlanChangeQuote,
    ): Promise<SubscriptionRow> {
      const id = randomUUID();
      const providerSubscriptionId = await providers.call(async (gateway) =>
        gateway.createSubscription({
          // Every charge of the new plan, its every-charge coupon and exclusive tax included.
          providerPlanId: await providers.planFor(gateway, plan, quote.due_now_minor),
          totalCount: TOTAL_CYCLES[plan.billing_interval],
          notes: { subscription_id: id, plan_id: plan.id, user_id: row.user_id ?? '', replaces: row.id },
        }),
      );
      const replacement = pendingSubscriptionRow({
        id,
        userId: row.user_id,
        planId: plan.id,
        provider: row.provider,
        providerSubscriptionId,
        couponId: row.coupon_id,
        now: clock.now().toISOString(),
        replaces: { subscriptionId: row.id, creditMinor: quote.credit_minor },
      });
      await insertSubscription(db, replacement);
      return replacement;
    },

    closeOut,

    /** Closes every replaced subscription still open at the provider; answers how many were closed. */
    async closeOutDue(): Promise<number> {
      let closed = 0;
      for (const row of await replacedAwaitingCloseOut(db)) {
        try {
          if (await closeOut(row.id)) closed++;
        } catch (error) {
          // Razorpay refused or could not be reached: the next run tries again.
          log.warn({ err: error, subscriptionId: row.id }, 'closing a replaced subscription failed');
        }
      }
      return closed;
    },
  };
}

export type Replacements = ReturnType<typeof createReplacements>;
