import type { CouponRow } from '../../platform/db/tables.js';

/**
 * What a coupon takes off an amount, in the currency's minor unit: a percentage rounded down to the
 * minor unit (so the customer never pays a fraction), or a fixed amount in the coupon's currency,
 * never more than the amount itself.
 */
export function discountOf(
  coupon: Pick<CouponRow, 'percent_off' | 'amount_off_minor' | 'currency'>,
  amountMinor: number,
  currency: string,
): number {
  if (coupon.percent_off !== null)
    return Math.floor((amountMinor * Math.min(Math.max(coupon.percent_off, 0), 100)) / 100);
  if (coupon.amount_off_minor !== null && coupon.currency === currency)
    return Math.min(coupon.amount_off_minor, amountMinor);
  return 0;
}

/** Whether the coupon's discount applies to this charge: the first always, later ones when it lasts forever. */
export const appliesToCharge = (coupon: Pick<CouponRow, 'duration'>, cycle: number): boolean =>
  cycle <= 1 || coupon.duration === 'forever';
