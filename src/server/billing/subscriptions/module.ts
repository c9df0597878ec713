import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import type { Config } from '../../platform/config.js';
import type { Db } from '../../platform/db/database.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import type { ScheduledJob } from '../../platform/scheduler.js';
import { issueInvoiceForPayment } from '../invoices/issue.js';
import { type CouponsService, findPlanRow } from '../../catalogue/index.js';
import type { PaymentProvider } from '../payments/provider.js';
import type { BillingEvents } from '../events.js';
import { createSubscriptionAnnouncements } from './announcements.js';
import { createSubscriptionCharges } from './charges.js';
import { createCyclePricing } from './cycle-amount.js';
import { createSubscriptionLifecycle } from './lifecycle.js';
import { createSubscriptionNotices } from './notices.js';
import { duplicateRefundId, duplicateRefundReason } from './duplicates.js';
import type { RefundCredit, ReserveCredit } from './provider-closing.js';
import { createSubscriptionsService } from './service.js';
import { createSubscriptionWebhookEvents } from './webhook-events.js';

/**
 * The subscription area's parts, built together: charges, the work time brings, the customer's
 * service, and the notices (billing's context subscribes each to the event it follows).
 */
export function createSubscriptionsArea({
  db,
  clock,
  events,
  provider,
  config,
  mailer,
  coupons,
  refundCredit,
  reserveCredit,
  log,
}: {
  db: Db;
  clock: Clock;
  /** Where the subscriptions' changes are announced (the webhooks listen). */
  events: BillingEvents;
  provider: PaymentProvider;
  config: Pick<Config, 'subscriptions' | 'payments' | 'invoices' | 'publicUrl'>;
  mailer: Mailer;
  coupons: CouponsService;
  /** Refunds a replaced subscription's credit (Razorpay plan changes), through the invoices area's refunds. */
  refundCredit: RefundCredit;
  /** Reserves a refund in a transaction (a refused second subscription, a cancellation now). */
  reserveCredit: ReserveCredit;
  log: FastifyBaseLogger;
}) {
  const pricing = createCyclePricing(config.invoices.tax);
  const notices = createSubscriptionNotices({
    db,
    clock,
    mailer,
    publicUrl: config.publicUrl,
    reminderDays: config.subscriptions.reminderDays,
    pricing,
  });
  // Each change announced in its transaction. The mail of a declined renewal and of a period's end
  // follows its announcement (billing's context subscribes it); the rest is still queued beside it.
  const hooks = createSubscriptionAnnouncements(events);
  const charges = createSubscriptionCharges({
    clock,
    events,
    grace: { graceDays: config.subscriptions.graceDays, retryDays: config.subscriptions.retryDays },
    pricing,
    effects: {
      // Every paid charge gets its invoice in the transaction that settles it, announced with the
      // payment (the customer's receipt follows the announcement).
      paid: async (trx, charge) => {
        const invoice = await issueInvoiceForPayment(trx, clock, config.invoices, charge.payment.id, {
          known: { payment: charge.payment, plan: charge.plan, subscription: charge.subscription },
        });
        await hooks.paid(trx, charge, invoice);
      },
      // A second subscription to the same plan: its payment is invoiced and refunded in full, and the customer told.
      refused: async (trx, charge) => {
        await issueInvoiceForPayment(trx, clock, config.invoices, charge.payment.id);
        const plan = await findPlanRow(trx, charge.subscription.plan_id);
        await reserveCredit(trx, {
          paymentId: charge.payment.id,
          amountMinor: Number(charge.payment.amount_minor),
          reason: duplicateRefundReason(plan?.name ?? charge.subscription.plan_id),
          refundId: duplicateRefundId(charge.payment.id),
        });
        await events.publish(trx, { type: 'subscription.charge_refused', charge });
      },
      failed: (trx, charge) => hooks.failed(trx, charge),
    },
  });
  const lifecycle = createSubscriptionLifecycle({
    db,
    clock,
    charges,
    graceDays: config.subscriptions.graceDays,
    log,
    effects: {
      // The customer's notice first (to a license revoked or expired meanwhile too, which is not
      // announced as suspended), then what integrators hear.
      suspended: async (trx, subscription, license) => {
        await events.publish(trx, { type: 'subscription.suspended', subscription, license });
        await hooks.suspended(trx, subscription, license);
      },
      ended: (trx, subscription) => hooks.ended(trx, subscription),
    },
  });
  const service = createSubscriptionsService({
    db,
    clock,
    provider,
    currency: config.payments.currency,
    charges,
    lifecycle,
    effects: {
      cancelled: async (trx, subscription, money) => {
        await events.publish(trx, { type: 'subscription.cancellation_requested', subscription, money });
        await hooks.cancelled(trx, subscription);
      },
      resumed: (trx, subscription) => events.publish(trx, { type: 'subscription.resumed', subscription }),
    },
    coupons,
    refundCredit,
    reserveCredit,
    log,
  });
  const webhookEvents = createSubscriptionWebhookEvents({ clock, events, charges, log });
  const jobs: ScheduledJob[] = [
    { name: 'subscriptions', run: () => lifecycle.runDue() },
    { name: 'subscriptions at Razorpay', run: () => service.closeAtProvider() },
    { name: 'subscription reminders', run: () => notices.sendReminders() },
  ];
  return { charges, lifecycle, service, notices, webhookEvents, jobs };
}
