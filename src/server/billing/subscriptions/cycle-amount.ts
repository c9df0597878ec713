import type { DbOrTransaction } from '../../platform/db/database.js';
import type { CouponRow, PlanRow, SubscriptionRow } from '../../platform/db/tables.js';
import { appliesToCharge, couponOfSubscription, discountOf } from '../../catalogue/index.js';
import type { TaxSettings } from '../invoices/settings.js';
import { chargeForPrice } from '../invoices/tax.js';
import { renewalAmount } from './billing-periods.js';

/** `seats` (1 when left out) multiplies a seat-based plan's per-seat price. */
type Priced = Pick<SubscriptionRow, 'coupon_id' | 'credit_minor'> & { seats?: number };
type Price = Pick<PlanRow, 'price_minor' | 'currency'>;

/** What a subscription's charges come to, with the coupon and the tax as configured. */
export function createCyclePricing(tax: Pick<TaxSettings, 'rateBasisPoints' | 'inclusive'>) {
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
    return chargeForPrice(price - discount, tax) * (subscription.seats ?? 1);
  }

  return {
    grossOf,
    /** What overage priced at `amountsMinor` (the plan's price terms) adds to a charge, taxed as the plan is. */
    overageGross: (amountsMinor: number[]) =>
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
