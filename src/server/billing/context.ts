import fp from 'fastify-plugin';
import { registerApiRoutes } from '../platform/http/api-scope.js';
import type { OwnershipTransferredEvent } from '../licensing/index.js';
import type { AccountErasingEvent } from '../identity/index.js';
import type { EventSubscriber } from '../platform/events.js';
import { endBillingOfErasedAccount } from './account-data/account-data.js';
import type { BillingEvent, BillingEvents, SubscriptionNotice } from './events.js';
import { INVOICE_PDF_ATTACHMENT, invoicePdfBytes } from './invoices/attachment.js';
import { invoicesModule } from './invoices/module.js';
import { createReceipts } from './invoices/receipts.js';
import { createRefundReceipts } from './invoices/refund-receipts.js';
import { createRefundsService } from './invoices/refunds.js';
import { createBillingService } from './invoices/service.js';
import { taxInvoiceWarning } from './invoices/settings.js';
import { createAdminPaymentsService } from './payments/admin-service.js';
import { createConfiguredProvider } from './payments/configured-provider.js';
import { paymentsModule, warnAboutPaymentProvider } from './payments/module.js';
import type { PaymentProvider } from './payments/provider.js';
import { createPaymentsService } from './payments/service.js';
import { createWebhookHandler } from './payments/webhooks.js';
import { creditPackRoutes } from './credit-packs/routes.js';
import { createCreditPackOrders } from './credit-packs/service.js';
import { createSettlement } from './settlement/settle.js';
import { seatPurchaseRoutes } from './seat-purchases/routes.js';
import { createSeatPurchases } from './seat-purchases/service.js';
import { adminSubscriptionsRoutes } from './subscriptions/admin-routes.js';
import { createAdminSubscriptionsService } from './subscriptions/admin-service.js';
import { createSubscriptionsArea } from './subscriptions/module.js';
import { transferOrganisationSubscriptions } from './subscriptions/repository.js';
import { subscriptionsRoutes } from './subscriptions/routes.js';
import type { SubscriptionsService } from './subscriptions/service.js';

export interface BillingOptions {
  /**
   * Where billing announces payments, subscriptions and the licenses it grants (the composition's
   * bus), and hears its own announcements for the customer's mail and licensing's for what
   * follows an organisation's owner.
   */
  events: BillingEvents &
    EventSubscriber<BillingEvent | OwnershipTransferredEvent | SubscriptionNotice | AccountErasingEvent>;
  /** Replaces the provider PAYMENT_PROVIDER selects (tests point Razorpay's SDK at a fake API). */
  provider?: PaymentProvider;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The customers' subscriptions (the CLI's sandbox renewal uses it). */
    subscriptions: SubscriptionsService;
  }
}

/** Billing: checkout, payments, subscriptions, seat purchases, invoices and refunds. */
export const billingContext = fp<BillingOptions>(
  async (app, { events, provider: givenProvider }) => {
    const { config, clock, db } = app.platform;
    const { mailer } = app;
    const { coupons } = app.catalogue;
    const { publicUrl } = config;
    const log = app.log;
    const provider = givenProvider ?? createConfiguredProvider(config);
    warnAboutPaymentProvider(provider, log);
    const notTaxInvoices = taxInvoiceWarning(config.invoices);
    if (notTaxInvoices) log.warn(notTaxInvoices);
    // The receipt mail's invoice PDF, rendered from the issued invoice when the worker sends it.
    mailer.registerAttachmentResolver(INVOICE_PDF_ATTACHMENT, invoicePdfBytes);

    const invoicing = config.invoices;
    // The customer's mail a payment or a refund brings follows its announcement, so the services
    // that settle and refund never name it; each is queued in the announcing transaction.
    const receipts = createReceipts({ mailer, publicUrl, clock });
    events.on('payment.paid', (trx, paid) => receipts.queue(trx, paid));
    const refundReceipts = createRefundReceipts({ mailer, publicUrl, clock });
    events.on('payment.refunded', (trx, refunded) => refundReceipts.queue(trx, refunded));
    // The subscriptions an organisation's previous owner held for it go with the organisation.
    events.on('organisation.ownership_transferred', transferOrganisationSubscriptions);
    // An erased account's subscriptions end with the erasure (the provider is told by the scheduler).
    events.on('account.erasing', (trx, { userId, at }) => endBillingOfErasedAccount(trx, userId, at));
    const refunds = createRefundsService({ db, clock, events, provider, invoicing, log });
    // Every paid charge settles through this one: checkout, webhooks, renewals, plan changes, seats.
    const settlement = createSettlement({
      clock,
      events,
      invoicing,
      reserveCredit: refunds.reserveCredit,
      packValidMonths: config.usagePackValidMonths,
    });
    const subscriptionsArea = createSubscriptionsArea({
      db,
      clock,
      events,
      provider,
      config,
      mailer,
      coupons,
      settlement,
      refundCredit: refunds.refundCredit,
      reserveCredit: refunds.reserveCredit,
      log,
    });
    // A declined renewal and the end of a period cancelled at its end are told as they are announced.
    const { notices } = subscriptionsArea;
    events.on('subscription.past_due', (trx, pastDue) => notices.pastDue(trx, pastDue));
    events.on('subscription.cancelled', (trx, cancelled) => notices.ended(trx, cancelled));
    events.on('subscription.charge_refused', (trx, { charge }) => notices.refused(trx, charge));
    events.on('subscription.suspended', (trx, { subscription, license }) =>
      notices.suspended(trx, subscription, license),
    );
    events.on('subscription.cancellation_requested', (trx, { subscription, money }) =>
      notices.cancelled(trx, subscription, money),
    );
    events.on('subscription.cancellation_withdrawn', (trx, { subscription }) =>
      notices.resumed(trx, subscription),
    );
    events.on('subscription.paused', (trx, { subscription }) => notices.paused(trx, subscription));
    events.on('subscription.resumed', (trx, { subscription, withdrawn }) =>
      notices.pauseEnded(trx, subscription, withdrawn === true),
    );
    app.decorate('subscriptions', subscriptionsArea.service);
    for (const job of subscriptionsArea.jobs) app.platform.schedule(job);
    // The server's own refunds (a refused second subscription, a cancellation now) the provider did not take yet.
    app.platform.schedule({ name: 'refunds left pending', run: () => refunds.retryPending() });

    const { checkoutExpiryMinutes } = config.payments;
    await registerApiRoutes(app, async (api) => {
      await api.register(paymentsModule, {
        payments: createPaymentsService({
          db,
          clock,
          settlement,
          provider,
          currencies: config.payments.currencies,
          invoicing,
          coupons,
          checkoutExpiryMinutes,
          log,
        }),
        handleWebhook: createWebhookHandler({
          db,
          clock,
          settlement,
          provider,
          subscriptionEvents: subscriptionsArea.webhookEvents,
          log,
        }),
        adminPayments: createAdminPaymentsService({ db, clock, checkoutExpiryMinutes }),
      });
      await api.register(creditPackRoutes, {
        orders: createCreditPackOrders({
          db,
          clock,
          provider,
          currencies: config.payments.currencies,
          invoicing,
          log,
        }),
      });
      await api.register(subscriptionsRoutes, { subscriptions: subscriptionsArea.service });
      await api.register(seatPurchaseRoutes, {
        seatPurchases: createSeatPurchases({
          db,
          clock,
          events,
          settlement,
          provider,
          pricing: subscriptionsArea.charges.pricing,
        }),
      });
      await api.register(adminSubscriptionsRoutes, {
        adminSubscriptions: createAdminSubscriptionsService({
          db,
          clock,
          subscriptions: subscriptionsArea.service,
        }),
      });
      await api.register(invoicesModule, { billing: createBillingService({ db, clock }), refunds });
    });
  },
  { name: 'billing', dependencies: ['platform', 'identity', 'catalogue', 'licensing'] },
);
