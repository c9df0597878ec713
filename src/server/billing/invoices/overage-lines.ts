import type { BilledOverage } from '../../licensing/index.js';
import { formatMoney } from '../../platform/mail/formatting.js';

/** One line of use past an allowance on a charge: its words and amount in the plan's price terms. */
export interface OverageLine {
  description: string;
  amountMinor: number;
}

const numberFormat = new Intl.NumberFormat('en-US');
const monthFormat = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const dayFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/**
 * "AI requests over the allowance, November 2026: 1,234 requests × ₹0.50 per 100": the feature,
 * the period it was used in (a day for a daily allowance), the units and the price they were billed at.
 */
export function overageLineWords(overage: BilledOverage): string {
  const when = (overage.period === 'day' ? dayFormat : monthFormat).format(new Date(overage.periodStart));
  const price = formatMoney(overage.priceMinor, overage.currency);
  const per = overage.perUnits === 1 ? 'each' : `per ${numberFormat.format(overage.perUnits)}`;
  return `${overage.featureName} over the allowance, ${when}: ${numberFormat.format(overage.units)} ${overage.unit ?? 'units'} × ${price} ${per}`;
}

export const overageLines = (billed: BilledOverage[]): OverageLine[] =>
  billed.map((overage) => ({ description: overageLineWords(overage), amountMinor: overage.amountMinor }));
