import type { DbOrTransaction } from '../../platform/db/database.js';
import type { LicenseRow, PaymentRow, SubscriptionRow } from '../../platform/db/tables.js';
import { findPlanIn } from '../../catalogue/index.js';
import { grantPeriod, type OverageOwed } from '../../licensing/index.js';
import { issueInvoiceForPayment } from '../invoices/issue.js';
import { claimPayment } from '../payments/repository.js';
import { type ChargeReport, newChargeRow, periodFor } from '../subscriptions/charge-row.js';
import { cancelledTrialRefundId, cancelledTrialRefundReason } from '../subscriptions/card-trials.js';
import { duplicateRefundId, duplicateRefundReason, liveTwinOf } from '../subscriptions/duplicates.js';
import { takeOverReplaced } from '../subscriptions/replacement-takeover.js';
import {
  chargePaymentRow,
  findPaymentByProviderPaymentId,
  findSubscription,
  setChargeAmount,
  setSettledCharge,
  updateSubscription,
} from '../subscriptions/repository.js';
import { announceOverage, billOverageOn } from './overage.js';
import { type ChargeRows, invoiceAndAnnounce, type SettlementDeps } from './steps.js';

/** A subscription's charge for one cycle, as the checkout, a webhook or the sandbox reports it. */
export interface CycleCharge {
  kind: 'cycle';
  report: ChargeReport;
  rows?: ChargeRows;
  /** Overage of ended periods the charge's amount includes (the sandbox's renewal prices it in). */
  overage?: OverageOwed[];
}

export type CycleSettlement =
  | { outcome: 'paid'; payment: PaymentRow; subscription: SubscriptionRow; license: LicenseRow }
  /** This charge was already settled: a replay, answered with what it did. */
  | { outcome: 'already_paid'; payment: PaymentRow; subscription: SubscriptionRow }
  /** Paid, but the buyer already had this subscription: recorded, refunded, and nothing started. */
  | { outcome: 'refused'; payment: PaymentRow; subscription: SubscriptionRow; twin: SubscriptionRow }
  /** A first charge of a card trial canceled before it: recorded, invoiced, refunded in full; no license time. */
  | { outcome: 'refunded'; payment: PaymentRow; subscription: SubscriptionRow };

/**
 * Records a paid charge that would have started a second subscription and cancels that
 * subscription: its payment is invoiced and refunded in full, and the customer told.
 */
async function refuse(
  trx: DbOrTransaction,
  deps: SettlementDeps,
  subscription: SubscriptionRow,
  won: PaymentRow,
  report: ChargeReport,
  twin: SubscriptionRow,
  planName: string,
): Promise<CycleSettlement> {
  const { clock, events, invoicing, reserveCredit } = deps;
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
  await issueInvoiceForPayment(trx, clock, invoicing, payment.id);
  await reserveCredit(trx, {
    paymentId: payment.id,
    amountMinor: Number(payment.amount_minor),
    reason: duplicateRefundReason(planName),
    refundId: duplicateRefundId(payment.id),
  });
  const charge = { payment, subscription: cancelled, twin };
  await events.publish(trx, { type: 'subscription.charge_refused', charge });
  return { outcome: 'refused', ...charge };
}

/**
 * A charge the provider made for a card trial canceled before its first charge (Razorpay charged
 * at the trial's end while our cancellation was on its way, or was never heard): the money is
 * recorded and invoiced as every payment is, and refunded in full through the provider's refund
 * path (reserved here, asked of Razorpay by the scheduler, which the refund receipt follows); no
 * period is granted, and the trial license still ends at the trial's end.
 */
async function refundCancelledTrial(
  trx: DbOrTransaction,
  deps: SettlementDeps,
  subscription: SubscriptionRow,
  won: PaymentRow,
  report: ChargeReport,
  planName: string,
): Promise<CycleSettlement> {
  const { clock, invoicing, reserveCredit } = deps;
  await setChargeAmount(trx, won.id, report);
  const payment = { ...won, amount_minor: report.amountMinor, currency: report.currency };
  await issueInvoiceForPayment(trx, clock, invoicing, payment.id);
  await reserveCredit(trx, {
    paymentId: payment.id,
    amountMinor: Number(payment.amount_minor),
    reason: cancelledTrialRefundReason(planName),
    refundId: cancelledTrialRefundId(payment.id),
  });
  return { outcome: 'refunded', payment, subscription };
}

/**
 * Settles one cycle's charge exactly once, however many reports of it arrive and in whatever order:
 * the charge's payment row is claimed by one caller, and only that caller extends the license (to
 * the end of the charge's period, never back) and moves the subscription on.
 */
export async function settleCycle(
  trx: DbOrTransaction,
  deps: SettlementDeps,
  { report, rows = {}, overage = [] }: CycleCharge,
): Promise<CycleSettlement> {
  const { clock, events } = deps;
  const subscription = rows.subscription ?? (await findSubscription(trx, report.subscriptionId));
  if (!subscription) throw new Error(`subscription ${report.subscriptionId} is gone`);
  const plan = rows.plan ?? (await findPlanIn(trx, subscription.plan_id, subscription.currency));
  if (!plan) throw new Error(`plan ${subscription.plan_id} is gone`);
  const now = clock.now();
  const replay = await findPaymentByProviderPaymentId(trx, report.providerPaymentId);
  if (replay?.status === 'paid') return { outcome: 'already_paid', payment: replay, subscription };

  const period = periodFor(subscription, plan, report.cycle, now);
  const price = { amountMinor: report.amountMinor, currency: report.currency };
  const row = await chargePaymentRow(trx, newChargeRow(subscription, plan, report.cycle, period, price, now));
  const won = await claimPayment(trx, row.id, report.providerPaymentId, now.toISOString());
  if (!won) return { outcome: 'already_paid', payment: row, subscription };

  // A card trial canceled before its first charge never charges: money that came anyway goes back.
  if (subscription.status === 'cancelled' && subscription.trial_ends_at !== null && subscription.cycles === 0)
    return refundCancelledTrial(trx, deps, subscription, won, report, plan.name);

  // Two checkouts of one plan both paid (two tabs, a double click): the first to settle starts
  // the subscription; this one records the money, refunds it and starts nothing.
  const twin = await liveTwinOf(trx, subscription);
  if (twin) return refuse(trx, deps, subscription, won, report, twin, plan.name);

  const replaced = await takeOverReplaced(trx, subscription, now.toISOString());
  const { license } = await grantPeriod(trx, clock, events, {
    subscription: replaced ? { ...subscription, license_id: replaced.license_id } : subscription,
    plan,
    period,
    takenOver: replaced !== undefined,
  });
  const newest = report.cycle >= subscription.cycles;
  const moved = await updateSubscription(trx, subscription.id, {
    // An update renewal's subscription holds no license: its charges move the perpetual license's
    // window on, and its failing or ending must not suspend or end that license.
    license_id: plan.renews_updates_of === null ? license.id : null,
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
  const billed = await billOverageOn(trx, {
    licenseId: license.id,
    subscriptionId: subscription.id,
    paymentId: won.id,
    owed: overage,
    at: now.toISOString(),
  });
  const invoice = await invoiceAndAnnounce(trx, deps, {
    payment,
    plan,
    subscription: moved,
    coupon: rows.coupon,
    paidUntil: payment.period_end,
    overage: billed,
  });
  await announceOverage(trx, events, { license, paymentId: won.id, billed, invoice });
  await events.publish(trx, {
    type: moved.cycles <= 1 ? 'subscription.created' : 'subscription.renewed',
    subscription: moved,
  });
  return { outcome: 'paid', payment, subscription: moved, license };
}
