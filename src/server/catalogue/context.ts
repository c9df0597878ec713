import fp from 'fastify-plugin';
import type { Db } from '../platform/db/database.js';
import { registerApiRoutes } from '../platform/http/api-scope.js';
import { couponsRoutes } from './coupons/routes.js';
import { createCouponsService, type CouponsService } from './coupons/service.js';
import { featuresRoutes } from './features/routes.js';
import { createFeaturesService } from './features/service.js';
import { createPlanCatalogueCache, type PlanCatalogueCache } from './plans/catalogue-cache.js';
import { plansRoutes } from './plans/routes.js';
import { createPlansService } from './plans/service.js';

/** What licensing and billing use of the catalogue: the cached plans a check reads, the coupons a charge redeems. */
export interface CatalogueContext {
  planCatalogue: PlanCatalogueCache;
  coupons: CouponsService;
}

export interface CatalogueOptions {
  /**
   * Whether any license refers to a plan: licensing's answer, given at composition because the
   * catalogue may not look at licenses. Such a plan is archived instead of deleted.
   */
  planInUse: (db: Db) => (planId: string) => Promise<boolean>;
  /**
   * The currencies a plan's live subscriptions are charged in: billing's answer, given at
   * composition because the catalogue may not look at subscriptions. A plan keeps a price in each.
   */
  currenciesInUse: (db: Db) => (planId: string) => Promise<string[]>;
}

declare module 'fastify' {
  interface FastifyInstance {
    catalogue: CatalogueContext;
  }
}

/** The catalogue: plans, their features, and coupons. */
export const catalogueContext = fp<CatalogueOptions>(
  async (app, { planInUse, currenciesInUse }) => {
    const { config, clock, db } = app.platform;
    const planCatalogue = createPlanCatalogueCache(db);
    // A changed plan or feature is seen by the next license check, not after the cache's time.
    const onCatalogueChange = planCatalogue.clear;
    const coupons = createCouponsService({ db, clock });
    app.decorate('catalogue', { planCatalogue, coupons } satisfies CatalogueContext);
    await registerApiRoutes(app, async (api) => {
      await api.register(plansRoutes, {
        plans: createPlansService({
          db,
          clock,
          onCatalogueChange,
          paymentCurrencies: config.payments.currencies,
          currenciesInUse: currenciesInUse(db),
          planInUse: planInUse(db),
        }),
      });
      await api.register(featuresRoutes, {
        features: createFeaturesService({ db, clock, onCatalogueChange }),
      });
      await api.register(couponsRoutes, { coupons });
    });
  },
  // The guards on its routes are identity's; the catalogue imports nothing of it.
  { name: 'catalogue', dependencies: ['platform'], decorators: { fastify: ['requireUser', 'requireAdmin'] } },
);
