import type { BillingEvents, RefusedCharge } from '../events.js';
import { randomUUID } from 'node:crypto';
import { laterMoment, utc } from '../../../shared/dates.js';
import type { Clock } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { LicenseRow, PaymentRow, PlanRow, SubscriptionRow } from '../../platform/db/tables.js';
import { claimPayment, markPaymentFailed } from '../payments/repository.js';
import { findPlanRow } from '../../catalogue/index.js';
import type { CyclePricing } from './cycle-amount.js';
import { liveTwinOf } from './duplicates.js';
import { takeOverReplaced } from './replacement-takeover.js';
import { extendThroughGrace, grantPeriod } from '../../licensing/index.js';
import { anchorOf, type BillingPeriod, periodOfCycle, type RecurringInterval } from './billing-periods.js';
import {
  chargePaymentRow,
  findPaymentByProviderPaymentId,
  findSubscription,
  setChargeAmount,
  setSettledCharge,
  updateSubscription,
} from './repository.js';

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

/**
 * Rows the caller already read in this transaction, passed along instead of read again: the
 * subscription as it is now (read under its lock, after the caller's own changes to it) and its plan.
 */
export interface KnownRows {
  subscription?: SubscriptionRow;
  plan?: PlanRow;
}

export interface FailedChargeReport {
  subscriptionId: string;
  cycle: number;
  providerPaymentId: string;
  reason: string;
  /** What was asked of the card; the plan's price unless the provider says otherwise. */
  amountMinor?: number;
}

/** What else happens when a charge is paid or fails: invoices, mails. Runs in the same transaction. */
export interface ChargeEffects {
  paid?(trx: DbOrTransaction, charge: PaidCharge): Promise<void>;
  /** A paid first charge that would have started a second subscription: its refund and mail. */
  refused?(trx: DbOrTransaction, charge: RefusedCharge): Promise<void>;
  failed?(trx: DbOrTransaction, charge: FailedCharge): Promise<void>;
}

export interface PaidCharge {
  payment: PaymentRow;
  subscription: SubscriptionRow;
  /** The subscription's plan, as the charge was settled with it. */
  plan: PlanRow;
  license: LicenseRow;
  /** True when the payment lifted a suspension or ended a grace period. */
  restored: boolean;
}

export interface FailedCharge {
  payment: PaymentRow;
  subscription: SubscriptionRow;
  /** True for the first failure of this period (later ones are retries). */
  firstFailure: boolean;
}

export type ChargeOutcome =
  | { outcome: 'paid'; payment: PaymentRow; subscription: SubscriptionRow; license: LicenseRow }
  /** This charge was already settled: a replay, answered with what it did. */
  | { outcome: 'already_paid'; payment: PaymentRow; subscription: SubscriptionRow }
  /** Paid, but the buyer already had this subscription: recorded, refunded, and nothing started. */
  | { outcome: 'refused'; payment: PaymentRow; subscription: SubscriptionRow; twin: SubscriptionRow };

export interface GraceSettings {
  graceDays: number;
  /** Days after the first failure on which the sandbox tries the charge again. */
  retryDays: readonly number[];
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
function periodFor(subscription: SubscriptionRow, plan: PlanRow, cycle: number, now: Date): BillingPeriod {
  const anchor = anchorOf(subscription) ?? { anchorAt: now.toISOString(), anchorCycle: cycle - 1 };
  return periodOfCycle(anchor, recurringInterval(plan), cycle);
}

/** The payment row of one charge as first reported (claimed, or marked failed, afterwards). */
function newChargeRow(
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

export function createSubscriptionCharges({
  clock,
  events,
  grace,
  pricing,
  effects = {},
}: {
  clock: Clock;
  /** Announces the licenses the charges issue. */
  events: BillingEvents;
  grace: GraceSettings;
  /** What each cycle costs (coupon, tax, kept balance). */
  pricing: CyclePricing;
  effects?: ChargeEffects;
}) {
  /** Records a paid charge that would have started a second subscription, and cancels that subscription. */
  async function refuse(
    trx: DbOrTransaction,
    subscription: SubscriptionRow,
    won: PaymentRow,
    report: ChargeReport,
    twin: SubscriptionRow,
  ): Promise<ChargeOutcome> {
    const now = clock.now().toISOString();
    await setChargeAmount(trx, won.id, report);
    const payment = { ...won, amount_minor: report.amountMinor, currency: report.currency };
    // Cancelled at once and never licensed; on Razorpay the scheduler stops it there (provider-closing.ts).
    const cancelled = await updateSubscription(trx, subscription.id, {
      status: 'cancelled',
      ended_at: subscription.ended_at ?? now,
      cancel_requested_at: subscription.cancel_requested_at ?? now,
      next_retry_at: null,
      ...(report.paymentMethod ? { payment_method: report.paymentMethod } : {}),
      updated_at: now,
    });
    if (!cancelled) throw new Error(`subscription ${subscription.id} is gone`);
    await effects.refused?.(trx, { payment, subscription: cancelled, twin });
    return { outcome: 'refused', payment, subscription: cancelled, twin };
  }

  return {
    pricing,
    /**
     * Settles one charge exactly once, however many reports of it arrive and in whatever order:
     * the charge's payment row is claimed by one caller, and only that caller extends the license
     * (to the end of the charge's period, never back) and moves the subscription on.
     */
    async settle(trx: DbOrTransaction, report: ChargeReport, known: KnownRows = {}): Promise<ChargeOutcome> {
      const subscription = known.subscription ?? (await findSubscription(trx, report.subscriptionId));
      if (!subscription) throw new Error(`subscription ${report.subscriptionId} is gone`);
      const plan = known.plan ?? (await findPlanRow(trx, subscription.plan_id));
      if (!plan) throw new Error(`plan ${subscription.plan_id} is gone`);
      const now = clock.now();
      const replay = await findPaymentByProviderPaymentId(trx, report.providerPaymentId);
      if (replay?.status === 'paid') return { outcome: 'already_paid', payment: replay, subscription };

      const period = periodFor(subscription, plan, report.cycle, now);
      const row = await chargePaymentRow(
        trx,
        newChargeRow(
          subscription,
          plan,
          report.cycle,
          period,
          { amountMinor: report.amountMinor, currency: report.currency },
          now,
        ),
      );
      const won = await claimPayment(trx, row.id, report.providerPaymentId, now.toISOString());
      if (!won) return { outcome: 'already_paid', payment: row, subscription };

      // Two checkouts of one plan both paid (two tabs, a double click): the first to settle starts
      // the subscription; this one records the money, refunds it and starts nothing.
      const twin = await liveTwinOf(trx, subscription);
      if (twin) return refuse(trx, subscription, won, report, twin);

      const replaced = await takeOverReplaced(trx, subscription, now.toISOString());
      const license = await grantPeriod(trx, clock, events, {
        subscription: replaced ? { ...subscription, license_id: replaced.license_id } : subscription,
        plan,
        periodEnd: period.end,
        takenOver: replaced !== undefined,
      });
      const restored = subscription.status === 'past_due' || subscription.status === 'suspended';
      const newest = report.cycle >= subscription.cycles;
      const moved = await updateSubscription(trx, subscription.id, {
        license_id: license.id,
        anchor_at: subscription.anchor_at ?? period.start,
        anchor_cycle: subscription.anchor_at === null ? report.cycle - 1 : subscription.anchor_cycle,
        cycles: Math.max(subscription.cycles, report.cycle),
        ...(newest ? { current_period_start: period.start, current_period_end: period.end } : {}),
        // A late charge of a cancelled subscription still buys its period, but does not revive it.
        ...(subscription.status === 'cancelled'
          ? {}
          : { status: 'active', grace_ends_at: null, next_retry_at: null, failed_attempts: 0 }),
        ...(report.paymentMethod ? { payment_method: report.paymentMethod } : {}),
        updated_at: now.toISOString(),
      });
      if (!moved) throw new Error(`subscription ${subscription.id} is gone`);
      // What was paid, for the period it pays for now: a failed attempt may have written the row
      // before the sandbox moved the dates, or for a different amount.
      const charged = {
        license_id: license.id,
        amount_minor: report.amountMinor,
        currency: report.currency,
        period_start: period.start,
        period_end: period.end,
      };
      await setSettledCharge(trx, won.id, charged);
      const payment = { ...won, ...charged };
      await effects.paid?.(trx, { payment, subscription: moved, plan, license, restored });
      return { outcome: 'paid', payment, subscription: moved, license };
    },

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
      const plan = await findPlanRow(trx, subscription.plan_id);
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
