import type { FastifyPluginAsync } from 'fastify';
import type { RefundsService } from './refunds.js';
import { adminBillingRoutes, billingRoutes } from './routes.js';
import type { BillingService } from './service.js';

export interface InvoicesModuleOptions {
  billing: BillingService;
  refunds: RefundsService;
}

/** Every billing route: the customer's details and invoices, and the administrators' side. */
export const invoicesModule: FastifyPluginAsync<InvoicesModuleOptions> = async (
  app,
  { billing, refunds },
) => {
  await app.register(billingRoutes, { billing });
  await app.register(adminBillingRoutes, { billing, refunds });
};
