import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import { adminPaymentsRoutes } from './admin-routes.js';
import type { AdminPaymentsService } from './admin-service.js';
import type { PaymentProvider } from './provider.js';
import { paymentsRoutes } from './routes.js';
import type { PaymentsService } from './service.js';
import { paymentWebhookRoutes } from './webhook-routes.js';
import type { WebhookHandler } from './webhooks.js';

/** Says at start what the payment set-up will do that an operator might not expect. */
export function warnAboutPaymentProvider(provider: PaymentProvider, log: FastifyBaseLogger): void {
  if (provider.name === 'razorpay' && !provider.acceptsWebhooks) {
    log.warn('RAZORPAY_WEBHOOK_SECRET is not set: Razorpay webhooks will be refused (verify still works)');
  }
  if (provider.sandbox)
    log.warn(
      'Payments run in the SANDBOX: paid plans are granted without money. Set RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET to take real payments.',
    );
}

export interface PaymentsModuleOptions {
  payments: PaymentsService;
  handleWebhook: WebhookHandler;
  adminPayments: AdminPaymentsService;
}

/** Every payments route: the buyer's, the webhook and the administrators' list. */
export const paymentsModule: FastifyPluginAsync<PaymentsModuleOptions> = async (
  app,
  { payments, handleWebhook, adminPayments },
) => {
  await app.register(paymentsRoutes, { payments });
  await app.register(paymentWebhookRoutes, { handleWebhook });
  await app.register(adminPaymentsRoutes, { adminPayments });
};
