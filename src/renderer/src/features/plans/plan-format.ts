import { msg, plural, t } from '@lingui/core/macro';
import type { Plan, PlanFeature } from '../../../../shared/api/plans';
import { formatAmount } from '../../lib/format-money';
import { numberFormat } from '../../lib/number-format';

/*
 * A plan's words for people, in the language shown when they are asked for (while rendering):
 * the plan's and its features' names and units are the catalogue's, as the administrator wrote them.
 */

const PERIODS = {
  month: msg`per month`,
  year: msg`per year`,
  lifetime: msg`one-time payment`,
  free: msg`free forever`,
} as const satisfies Record<Plan['billing_interval'], unknown>;

/** Whether a plan costs nothing: the free plan, or one priced at nothing. */
export const isFreePlan = (plan: Pick<Plan, 'price_minor' | 'billing_interval'>): boolean =>
  plan.billing_interval === 'free' || plan.price_minor === 0;

/** A plan's price for people: "$19", "₹1,499.50", or "Free", and what it is per. */
export function formatPlanPrice(
  plan: Pick<Plan, 'price_minor' | 'currency' | 'billing_interval'> & { seat_based?: boolean },
  locale?: string,
): { amount: string; period: string } {
  // A seat-based plan's price is for one seat: "per seat / month".
  const period =
    plan.seat_based && plan.billing_interval === 'month'
      ? t`per seat / month`
      : plan.seat_based && plan.billing_interval === 'year'
        ? t`per seat / year`
        : t(PERIODS[plan.billing_interval]);
  if (isFreePlan(plan)) return { amount: t`Free`, period };
  return { amount: formatAmount(plan.price_minor, plan.currency, locale), period };
}

export const formatSeats = (seats: number, seatBased = false): string =>
  seatBased
    ? t`Named seats, each on ${plural(seats, { one: '# device', other: '# devices' })} at once`
    : t`Use on ${plural(seats, { one: '# device', other: '# devices' })} at once`;

/** "Voice commands", "AI chat: 1,000 messages per day", "AI chat: unlimited messages". */
export function formatFeature(feature: PlanFeature, locale?: string): string {
  const name = feature.name;
  if (feature.kind === 'boolean') return name;
  const unit = feature.unit ?? t`uses`;
  if (feature.limit === null) return t`${name}: unlimited ${unit}`;
  const count = numberFormat(locale).format(feature.limit);
  if (feature.period === 'day') return t`${name}: ${count} ${unit} per day`;
  if (feature.period === 'month') return t`${name}: ${count} ${unit} per month`;
  return t`${name}: ${count} ${unit}`;
}
