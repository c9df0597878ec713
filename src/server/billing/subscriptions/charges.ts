import { laterMoment, utc } from '../../../shared/dates.js';
import type { Clock } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { PaymentRow, SubscriptionRow } from '../../platform/db/tables.js';
import { findPlanIn } from '../../catalogue/index.js';
import { extendThroughGrace } from '../../licensing/index.js';
import { markPaymentFailed } from '../payments/repository.js';
import type { Settlement } from '../settlement/settle.js';
import { newChargeRow, periodFor } from './charge-row.js';
import type { CyclePricing } from './cycle-amount.js';
import { chargePaymentRow, findSubscription, updateSubscription } from './repository.js';

export interface FailedChargeReport {
  subscriptionId: string;
  cycle: number;
  providerPaymentId: string;
  reason: string;
  /** What was asked of the card; the plan's price unless the provider says otherwise. */
  amountMinor?: number;
}

/** What else happens when a charge fails (its announcement). Runs in the same transaction. */
export interface FailureEffects {
  failed?(trx: DbOrTransaction, charge: FailedCharge): Promise<void>;
}

export interface FailedCharge {
  payment: PaymentRow;
  subscription: SubscriptionRow;
  /** True for the first failure of this period (later ones are retries). */
  firstFailure: boolean;
}

export interface GraceSettings {
  graceDays: number;
  /** Days after the first failure on which the sandbox tries the charge again. */
  retryDays: readonly number[];
}

/**
 * A subscription's charges: what each cycle costs, settling a paid one (billing's one settle, which
 * every kind of charge goes through) and recording a failed one.
 */
export function createSubscriptionCharges({
  clock,
  grace,
  pricing,
  settlement,
  effects = {},
}: {
  clock: Clock;
  grace: GraceSettings;
  /** What each cycle costs (coupon, tax, kept balance). */
  pricing: CyclePricing;
  settlement: Settlement;
  effects?: FailureEffects;
}) {
  return {
    pricing,
    /** The moment a charge is made at (the clock's now): the sandbox's renewal bills overage ended by it. */
    now: () => clock.now(),
    settle: settlement.settle,

    /**
     * A charge that failed: the subscription falls past due and the license stays valid through the
     * grace period (counted from the end of the paid period, or from now if that is later); the
     * sandbox tries again on the configured days. A failure reported after the charge was paid, or
     * for a subscription that has ended, changes nothing.
     */
    async fail(trx: DbOrTransaction, report: FailedChargeReport): Promise<FailedCharge | undefined> {
      const subscription = await findSubscription(trx, report.subscriptionId);
      if (!subscription) throw new Error(`subscription ${report.subscriptionId} is gone`);
      if (subscription.cycles >= report.cycle) return undefined;
      // A first charge declined at checkout is recorded (the customer's history shows it) and nothing more.
      const declinedAtCheckout = subscription.status === 'pending' && report.cycle === 1;
      if (subscription.status !== 'active' && subscription.status !== 'past_due' && !declinedAtCheckout)
        return undefined;
      const plan = await findPlanIn(trx, subscription.plan_id, subscription.currency);
      if (!plan) throw new Error(`plan ${subscription.plan_id} is gone`);
      const now = clock.now();
      const period = periodFor(subscription, plan, report.cycle, now);
      const amountMinor =
        report.amountMinor ?? (await pricing.amountOf(trx, subscription, plan, report.cycle)).amountMinor;
      const row = await chargePaymentRow(
        trx,
        newChargeRow(subscription, plan, report.cycle, period, { amountMinor, currency: plan.currency }, now),
      );
      if (row.status === 'paid') return undefined;
      await markPaymentFailed(trx, row.id, {
        providerPaymentId: report.providerPaymentId,
        reason: report.reason,
        at: now.toISOString(),
      });
      if (declinedAtCheckout) return undefined;
      const firstFailure = subscription.status === 'active';
      const graceStart =
        subscription.grace_ends_at === null
          ? utc(laterMoment(subscription.current_period_end, now.toISOString()))
          : utc(subscription.grace_ends_at).subtract(grace.graceDays, 'day');
      const graceEndsAt = graceStart.add(grace.graceDays, 'day').toISOString();
      const attempts = subscription.failed_attempts + 1;
      const retryDay = grace.retryDays[attempts - 1];
      const moved = await updateSubscription(
        trx,
        subscription.id,
        {
          status: 'past_due',
          grace_ends_at: graceEndsAt,
          failed_attempts: attempts,
          next_retry_at:
            retryDay === undefined || subscription.provider !== 'sandbox'
              ? null
              : graceStart.add(retryDay, 'day').toISOString(),
          updated_at: now.toISOString(),
        },
        { version: subscription.version },
      );
      // Another report moved it meanwhile: that one's effects stand.
      if (!moved) return undefined;
      if (subscription.license_id) await extendThroughGrace(trx, clock, subscription.license_id, graceEndsAt);
      const payment = { ...row, status: 'failed' as const, failure_reason: report.reason };
      const failed = { payment, subscription: moved, firstFailure };
      await effects.failed?.(trx, failed);
      return failed;
    },
  };
}

export type SubscriptionCharges = ReturnType<typeof createSubscriptionCharges>;
