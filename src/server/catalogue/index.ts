// What other contexts may use of the catalogue (docs/architecture.md): a context imports this file,
// never the catalogue's own folders.

export { currentPeriodStart, periodEnd } from './features/usage-periods.js';

// The plans a license, a charge or an invoice is for, read by licensing, billing and admin.
export {
  featuresOfPlans,
  findOfferedPlanByCode,
  findOfferedPlanByIdOrCode,
  findPlanRow,
  findPlanRowByIdOrCode,
  listOfferedPlans,
  planSummaries,
  type PlanSummary,
  plansByIds,
  withFeatures,
} from './plans/repository.js';
// A plan as it is sold in one of its currencies (issue 34, item 7), read by billing for every charge.
export { findPlanIn, otherPricesOfPlans, planInCurrency } from './plans/prices-repository.js';
// The coupon a subscription's charges and invoices are discounted by, read by billing.
export { couponOfSubscription, findCoupon } from './coupons/repository.js';
export { appliesToCharge, discountOf } from './coupons/discount.js';
export type { CouponsService } from './coupons/service.js';
// The feature a license's usage is counted against, read by licensing.
export { findFeatureByIdOrKey } from './features/repository.js';
// The plans a license check shows, cached: the catalogue's plugin builds the cache, licensing's
// license check reads it.
export type { CachedPlan, PlanCatalogueCache } from './plans/catalogue-cache.js';
