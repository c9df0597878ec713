import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { ScheduledJob } from '../../scheduler.js';
import { issueInvoiceForPayment } from '../invoices/issue.js';
import type { PaymentProvider } from '../payments/provider.js';
import { createSubscriptionCharges } from './charges.js';
import { createSubscriptionLifecycle } from './lifecycle.js';
import { createSubscriptionsService } from './service.js';

/** The subscription area's parts, built together: charges, the work time brings, and the customer's service. */
export function createSubscriptionsArea({
  db,
  clock,
  provider,
  config,
  log,
}: {
  db: Db;
  clock: Clock;
  provider: PaymentProvider;
  config: Pick<Config, 'subscriptions' | 'payments' | 'invoices'>;
  log: FastifyBaseLogger;
}) {
  const charges = createSubscriptionCharges({
    clock,
    grace: { graceDays: config.subscriptions.graceDays, retryDays: config.subscriptions.retryDays },
    effects: {
      // Every paid charge gets its invoice in the transaction that settles it.
      paid: async (trx, { payment }) => {
        await issueInvoiceForPayment(trx, clock, config.invoices, payment.id);
      },
    },
  });
  const lifecycle = createSubscriptionLifecycle({ db, clock, charges, log });
  const service = createSubscriptionsService({
    db,
    clock,
    provider,
    currency: config.payments.currency,
    charges,
    lifecycle,
  });
  const jobs: ScheduledJob[] = [{ name: 'subscriptions', run: () => lifecycle.runDue() }];
  return { charges, lifecycle, service, jobs };
}
