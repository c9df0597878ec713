import type { FastifyPluginAsync } from 'fastify';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { adminPaymentsRoutes } from './admin-routes.js';
import { createAdminPaymentsService } from './admin-service.js';
import { createConfiguredProvider } from './configured-provider.js';
import type { PaymentProvider } from './provider.js';
import { paymentsRoutes } from './routes.js';
import { createPaymentsService } from './service.js';
import { paymentWebhookRoutes } from './webhook-routes.js';
import { createWebhookHandler } from './webhooks.js';

export interface PaymentsModuleOptions {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'payments' | 'dataDir'>;
  /** Replaces the configured provider (tests point Razorpay's SDK at a fake API this way). */
  provider?: PaymentProvider;
}

/** Every payments route: the buyer's, the webhook and the administrators' list. */
export const paymentsModule: FastifyPluginAsync<PaymentsModuleOptions> = async (app, options) => {
  const { db, clock, config } = options;
  const provider = options.provider ?? createConfiguredProvider(config);
  if (provider.name === 'razorpay' && !provider.acceptsWebhooks) {
    app.log.warn(
      'RAZORPAY_WEBHOOK_SECRET is not set: Razorpay webhooks will be refused (verify still works)',
    );
  }
  if (provider.sandbox)
    app.log.warn(
      'Payments run in the SANDBOX: paid plans are granted without money. Set RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET to take real payments.',
    );
  const payments = createPaymentsService({
    db,
    clock,
    provider,
    currency: config.payments.currency,
    log: app.log,
  });
  await app.register(paymentsRoutes, { payments });
  await app.register(paymentWebhookRoutes, {
    handleWebhook: createWebhookHandler({ db, clock, provider, log: app.log }),
  });
  await app.register(adminPaymentsRoutes, { adminPayments: createAdminPaymentsService({ db }) });
};
