import type { Plan, PlanFeature } from '../../../../shared/api/plans';

/**
 * One formatter per locale and options: making one costs about as much as rendering a plan card,
 * and a page of plans asked for dozens with the same options.
 */
const formatters = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string | undefined, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = JSON.stringify([locale ?? null, options]);
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    formatters.set(key, format);
  }
  return format;
}

/** Digits of the currency's minor unit (2 for USD and INR, 0 for JPY), as Intl knows them. */
function minorDigits(currency: string, locale?: string): number {
  try {
    return numberFormat(locale, { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

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
  const digits = minorDigits(plan.currency, locale);
  const value = plan.price_minor / 10 ** digits;
  try {
    const amount = numberFormat(locale, {
      style: 'currency',
      currency: plan.currency,
      // Whole prices read cleaner without ".00".
      minimumFractionDigits: Number.isInteger(value) ? 0 : digits,
      maximumFractionDigits: digits,
    }).format(value);
    return { amount, period };
  } catch {
    return { amount: `${value.toFixed(digits)} ${plan.currency}`, period };
  }
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
