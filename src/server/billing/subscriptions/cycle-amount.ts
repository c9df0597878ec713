import type { DbOrTransaction } from '../../platform/db/database.js';
import type { CouponRow, PlanRow, SubscriptionRow } from '../../platform/db/tables.js';
import { appliesToCharge, couponOfSubscription, discountOf } from '../../catalogue/index.js';
import { subscriptionPricingTax } from '../invoices/buyer-treatment.js';
import type { PricingTax, TreatmentSettings } from '../invoices/tax-treatment.js';
import { chargeForPrice } from '../invoices/tax.js';
import { renewalAmount } from './billing-periods.js';

/**
 * `seats` (1 when left out) multiplies a seat-based plan's per-seat price. The buyer (account,
 * organisation) sets the tax: a buyer outside India pays none (tax-treatment.ts); a subscription
 * not yet made, without them, is priced as a sale in India.
 */
type Priced = Pick<SubscriptionRow, 'coupon_id' | 'credit_minor'> & {
  seats?: number;
} & Partial<Pick<SubscriptionRow, 'user_id' | 'organisation_id'>>;
type Price = Pick<PlanRow, 'price_minor' | 'currency'>;

/** What a subscription's charges come to, with the coupon and the tax as configured. */
export function createCyclePricing(settings: TreatmentSettings) {
  /** The tax of this subscription's charges, from its buyer's billing details as they are now. */
  const taxOf = (db: DbOrTransaction, subscription: Priced): Promise<PricingTax> =>
    subscription.user_id === undefined
      ? Promise.resolve(settings.tax)
      : subscriptionPricingTax(db, settings, {
          user_id: subscription.user_id,
          organisation_id: subscription.organisation_id ?? null,
        });

  /**
   * The charge for cycle `cycle` before any kept balance: the plan's price less the coupon's
   * discount when it applies to that charge (the first only, or every one), plus the tax when
   * prices are exclusive of it, as one-off purchases are charged. A seat-based subscription pays
   * that for every seat: the coupon comes off each seat's price, so the total is always a whole
   * multiple of one seat's charge, as Razorpay charges its per-seat plan `quantity` times.
   */
  async function grossOf(
    db: DbOrTransaction,
    subscription: Priced,
    plan: Price,
    cycle: number,
    /** The subscription's coupon when the caller holds it already (null for none). */
    known?: CouponRow | null,
  ): Promise<number> {
    const price = Number(plan.price_minor);
    const coupon = await couponOfSubscription(db, subscription.coupon_id, known);
    const discount = coupon && appliesToCharge(coupon, cycle) ? discountOf(coupon, price, plan.currency) : 0;
    return chargeForPrice(price - discount, await taxOf(db, subscription)) * (subscription.seats ?? 1);
  }

  return {
    grossOf,
    taxOf,
    /**
     * What overage priced at `amountsMinor` (the plan's price terms) adds to a charge, taxed as the
     * plan is (`tax`: the subscription's, from {@link taxOf}).
     */
    overageGross: (amountsMinor: number[], tax: PricingTax) =>
      amountsMinor.reduce((sum, amount) => sum + chargeForPrice(amount, tax), 0),
    /** What cycle `cycle` is charged, less the balance kept from a move to a cheaper plan; and what remains of it. */
    async amountOf(
      db: DbOrTransaction,
      subscription: Priced,
      plan: Price,
      cycle: number,
      known?: CouponRow | null,
    ) {
      return renewalAmount(await grossOf(db, subscription, plan, cycle, known), subscription.credit_minor);
    },
  };
}

export type CyclePricing = ReturnType<typeof createCyclePricing>;
