import type { Coupon } from '../../../../../shared/api/coupons';
import type { StatusTone } from '../../../components/data/status-badge';
import { formatAmount } from '../../../lib/format-money';

/** "20% off" or "₹100 off". */
export const couponDiscount = (coupon: Pick<Coupon, 'percent_off' | 'amount_off_minor' | 'currency'>) =>
  coupon.percent_off !== null
    ? `${coupon.percent_off}% off`
    : `${formatAmount(coupon.amount_off_minor ?? 0, coupon.currency ?? 'INR')} off`;

export const DURATION_LABELS: Record<Coupon['duration'], { label: string; hint: string }> = {
  once: { label: 'First charge', hint: 'The first payment only; a subscription renews at the full price.' },
  forever: { label: 'Every charge', hint: 'Every payment of a subscription, for as long as it runs.' },
};

/** "3 of 10", or "3" when there is no limit. */
export const redeemedOfLimit = (coupon: Pick<Coupon, 'redeemed_count' | 'max_redemptions'>) =>
  coupon.max_redemptions === null
    ? coupon.redeemed_count.toLocaleString()
    : `${coupon.redeemed_count.toLocaleString()} of ${coupon.max_redemptions.toLocaleString()}`;

/** Whether customers can use the coupon now, and if not why. */
export function couponState(coupon: Coupon, now = Date.now()): { label: string; tone: StatusTone } {
  if (coupon.archived) return { label: 'Archived', tone: 'neutral' };
  if (coupon.expires_at !== null && new Date(coupon.expires_at).valueOf() <= now)
    return { label: 'Expired', tone: 'caution' };
  if (coupon.max_redemptions !== null && coupon.redeemed_count >= coupon.max_redemptions)
    return { label: 'Used up', tone: 'caution' };
  return { label: 'Active', tone: 'positive' };
}

/** How many digits the currency's minor unit has (2 for INR and USD, 0 for JPY). */
export function minorDigits(currency: string): number {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
      2
    );
  } catch {
    return 2;
  }
}
