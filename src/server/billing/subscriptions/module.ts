import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import type { Config } from '../../platform/config.js';
import type { Db } from '../../platform/db/database.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import type { ScheduledJob } from '../../platform/scheduler.js';
import type { CouponsService } from '../../catalogue/index.js';
import type { PaymentProvider } from '../payments/provider.js';
import type { BillingEvents } from '../events.js';
import type { Settlement } from '../settlement/settle.js';
import { createSubscriptionAnnouncements } from './announcements.js';
import { createSubscriptionCharges } from './charges.js';
import { createCyclePricing } from './cycle-amount.js';
import { createSubscriptionLifecycle } from './lifecycle.js';
import { createOverageAddons } from './overage-addons.js';
import { createSubscriptionNotices } from './notices.js';
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
  settlement,
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
  /** Billing's one settle: a subscription's paid charges go through it. */
  settlement: Settlement;
  /** Refunds a replaced subscription's credit (Razorpay plan changes), through the invoices area's refunds. */
  refundCredit: RefundCredit;
  /** Reserves a refund in a transaction (a refused second subscription, a cancellation now). */
  reserveCredit: ReserveCredit;
  log: FastifyBaseLogger;
}) {
  const pricing = createCyclePricing(config.invoices);
  const notices = createSubscriptionNotices({
    db,
    clock,
    mailer,
    publicUrl: config.publicUrl,
    reminderDays: config.subscriptions.reminderDays,
    pricing,
  });
  // Each change announced in its transaction; the customer's mail follows its announcement (billing's
  // context subscribes it).
  const hooks = createSubscriptionAnnouncements(events);
  const charges = createSubscriptionCharges({
    clock,
    grace: { graceDays: config.subscriptions.graceDays, retryDays: config.subscriptions.retryDays },
    pricing,
    settlement,
    effects: { failed: (trx, charge) => hooks.failed(trx, charge) },
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
      resumed: (trx, subscription, early) =>
        events.publish(trx, { type: 'subscription.resumed', subscription, early }),
    },
    // Bound late: the service holds the provider's calls, and is made with the lifecycle.
    resumeAtProvider: (subscription) => service.resumeAtProvider(subscription),
  });
  const service = createSubscriptionsService({
    db,
    clock,
    provider,
    currencies: config.payments.currencies,
    charges,
    lifecycle,
    events,
    effects: {
      cancelled: async (trx, subscription, money) => {
        await events.publish(trx, { type: 'subscription.cancellation_requested', subscription, money });
        await hooks.cancelled(trx, subscription);
      },
      resumed: (trx, subscription) =>
        events.publish(trx, { type: 'subscription.cancellation_withdrawn', subscription }),
      pause: {
        paused: (trx, subscription) => events.publish(trx, { type: 'subscription.paused', subscription }),
        // A pause to come withdrawn (still active); one under way resumed early is told by the lifecycle.
        withdrawn: (trx, subscription) =>
          events.publish(trx, { type: 'subscription.resumed', subscription, early: true, withdrawn: true }),
      },
    },
    coupons,
    refundCredit,
    reserveCredit,
    log,
  });
  const overageAddons = createOverageAddons({ db, clock, provider, pricing, log });
  const webhookEvents = createSubscriptionWebhookEvents({ clock, events, charges, log });
  const jobs: ScheduledJob[] = [
    { name: 'subscriptions', run: () => lifecycle.runDue() },
    { name: 'subscriptions at Razorpay', run: () => service.closeAtProvider() },
    { name: 'subscription reminders', run: () => notices.sendReminders() },
    { name: 'usage overage at Razorpay', run: () => overageAddons.placeDue() },
  ];
  return { charges, lifecycle, service, notices, webhookEvents, jobs };
}
