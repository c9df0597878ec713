import type { Plan, PlanFeature } from '../../../../shared/api/plans';
import { formatAmount } from '../../lib/format-money';
import { numberFormat } from '../../lib/number-format';

const PERIODS: Record<Plan['billing_interval'], string> = {
  month: 'per month',
  year: 'per year',
  lifetime: 'one-time payment',
  free: 'free forever',
};

/** A plan's price for people: "$19", "₹1,499.50", or "Free", and what it is per. */
export function formatPlanPrice(
  plan: Pick<Plan, 'price_minor' | 'currency' | 'billing_interval'> & { seat_based?: boolean },
  locale?: string,
): { amount: string; period: string } {
  // A seat-based plan's price is for one seat: "per seat / month".
  const period =
    plan.seat_based && (plan.billing_interval === 'month' || plan.billing_interval === 'year')
      ? `per seat / ${plan.billing_interval}`
      : PERIODS[plan.billing_interval];
  if (plan.billing_interval === 'free' || plan.price_minor === 0) return { amount: 'Free', period };
  return { amount: formatAmount(plan.price_minor, plan.currency, locale), period };
}

export const formatSeats = (seats: number, seatBased = false): string =>
  seatBased
    ? `Named seats, each on ${seats} device${seats === 1 ? '' : 's'} at once`
    : `Use on ${seats} device${seats === 1 ? '' : 's'} at once`;

/** "Voice commands", "AI chat: 1,000 messages per day", "AI chat: unlimited messages". */
export function formatFeature(feature: PlanFeature, locale?: string): string {
  if (feature.kind === 'boolean') return feature.name;
  const unit = feature.unit ?? 'uses';
  if (feature.limit === null) return `${feature.name}: unlimited ${unit}`;
  const count = numberFormat(locale).format(feature.limit);
  return `${feature.name}: ${count} ${unit}${feature.period ? ` per ${feature.period}` : ''}`;
}
