import { t } from '@lingui/core/macro';
import type { Coupon } from '../../../../../shared/api/coupons';
import type { StatusTone } from '../../../components/data/status-badge';
import { formatAmount } from '../../../lib/format-money';
import { formatNumber } from '../../licenses';

/** "20% off" or "₹100 off", in the language shown. */
export function couponDiscount(
  coupon: Pick<Coupon, 'percent_off' | 'amount_off_minor' | 'currency'>,
): string {
  if (coupon.percent_off !== null) {
    const percent = coupon.percent_off;
    return t`${percent}% off`;
  }
  const amount = formatAmount(coupon.amount_off_minor ?? 0, coupon.currency ?? 'INR');
  return t`${amount} off`;
}

/**
 * What a coupon's duration means, in the language shown: its name, the same inside a sentence
 * ("20% off · first charge"), and a line on it.
 */
export function durationText(duration: Coupon['duration']): { label: string; inText: string; hint: string } {
  return duration === 'once'
    ? {
        label: t`First charge`,
        inText: t`first charge`,
        hint: t`The first payment only; a subscription renews at the full price.`,
      }
    : {
        label: t`Every charge`,
        inText: t`every charge`,
        hint: t`Every payment of a subscription, for as long as it runs.`,
      };
}

/** "3 of 10", or "3" when there is no limit. */
export function redeemedOfLimit(coupon: Pick<Coupon, 'redeemed_count' | 'max_redemptions'>): string {
  const redeemed = formatNumber(coupon.redeemed_count);
  if (coupon.max_redemptions === null) return redeemed;
  const limit = formatNumber(coupon.max_redemptions);
  return t`${redeemed} of ${limit}`;
}

/** Whether customers can use the coupon now, and if not why (in the language shown). */
export function couponState(coupon: Coupon, now = Date.now()): { label: string; tone: StatusTone } {
  if (coupon.archived) return { label: t`Archived`, tone: 'neutral' };
  if (coupon.expires_at !== null && new Date(coupon.expires_at).valueOf() <= now)
    return { label: t`Expired`, tone: 'caution' };
  if (coupon.max_redemptions !== null && coupon.redeemed_count >= coupon.max_redemptions)
    return { label: t`Used up`, tone: 'caution' };
  return { label: t`Active`, tone: 'positive' };
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
