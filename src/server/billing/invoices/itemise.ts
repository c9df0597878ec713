import type { InvoiceLine } from '../../../shared/api/invoices.js';
import type { PlanRow } from '../../platform/db/tables.js';
import type { OverageLine } from './overage-lines.js';
import { formatDate } from '../../platform/mail/formatting.js';
import { formatMinor, formatRate } from './pdf.js';
import type { TaxSettings } from './settings.js';
import type { PricingTax } from './tax-treatment.js';
import { chargeForPrice, splitGross, type TaxSplit } from './tax.js';

/**
 * An invoice's lines from what was bought and what was charged, in minor units that add up
 * exactly. The lines are in the prices' own terms: including the tax when prices include it (the
 * ₹999 the customer saw), before tax when the tax is added. What was bought is the plan's list
 * price times its seats, the coupon's discount comes off each seat, and anything the charge
 * differs by (credit kept from earlier payments, taken off) is a line of its own, so the lines
 * always come to what was charged.
 */

/** The coupon of a charge, as its discount line names it. */
export interface ChargeCoupon {
  code: string;
  percentOff: number | null;
  amountOffMinor: number | null;
  /** Off each unit (seat) of the list price. */
  unitDiscountMinor: number;
}

export interface ChargeFacts {
  plan:
    | (Pick<PlanRow, 'name' | 'billing_interval' | 'price_minor'> &
        Partial<Pick<PlanRow, 'update_months' | 'renews_updates_of'>>)
    | undefined;
  planId: string;
  /** A subscription's charge (monthly, yearly) rather than a one-off purchase of one period. */
  recurring: boolean;
  /** Seats of a seat-based plan's charge, else 1. */
  quantity: number;
  perSeat: boolean;
  coupon: ChargeCoupon | undefined;
  /** A charge for seats added mid-period: prorated, so one line for the whole amount. */
  seatsAdded: { from: number; to: number } | undefined;
  /** Credit packs bought: so many packs at their price, each described as the order named it. */
  pack?: { description: string; quantity: number; unitPriceMinor: number } | undefined;
  chargedMinor: number;
  currency: string;
  /** Use past an allowance billed with this charge (a renewal), one line each, taxed as the plan is. */
  overage?: OverageLine[];
}

export interface Itemised {
  lines: InvoiceLine[];
  /** What the charge comes to before tax, its tax and the charge itself. */
  split: TaxSplit;
  /** True when the lines' amounts include the tax. */
  linesIncludeTax: boolean;
}

const ONE_OFF_WORDS: Record<PlanRow['billing_interval'], string> = {
  month: 'one month',
  year: 'one year',
  lifetime: 'lifetime',
  free: 'free',
};
const RECURRING_WORDS: Record<PlanRow['billing_interval'], string> = {
  month: 'monthly subscription',
  year: 'yearly subscription',
  lifetime: 'lifetime',
  free: 'free',
};

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * What a one-off purchase bought: an update renewal names the months of updates it adds, a
 * perpetual plan the updates it comes with, any other plan its interval.
 */
function planWords(plan: NonNullable<ChargeFacts['plan']>, recurring: boolean): string {
  const months = plan.update_months ?? null;
  if (months !== null && plan.renews_updates_of)
    return `update renewal, ${plural(months, 'month')} of updates`;
  if (months !== null) return `perpetual license with ${plural(months, 'month')} of updates`;
  return (recurring ? RECURRING_WORDS : ONE_OFF_WORDS)[plan.billing_interval];
}

const line = (
  kind: InvoiceLine['kind'],
  description: string,
  quantity: number,
  unitAmount: number,
  couponCode: string | null = null,
): InvoiceLine => ({
  kind,
  description,
  quantity,
  unit_amount: unitAmount,
  amount: quantity * unitAmount,
  coupon_code: couponCode,
});

function couponWords(coupon: ChargeCoupon, currency: string, perSeat: boolean): string {
  const off =
    coupon.percentOff !== null
      ? `${formatRate(coupon.percentOff * 100)} off`
      : `${formatMinor(coupon.amountOffMinor ?? coupon.unitDiscountMinor, currency)} off`;
  return `Coupon ${coupon.code}: ${off}${perSeat ? ' each seat' : ''}`;
}

/** The whole charge as one line (a prorated seat purchase, a plan no longer known). */
function singleLine(facts: ChargeFacts, description: string, tax: TaxSettings): Itemised {
  const split = splitGross(facts.chargedMinor, tax.rateBasisPoints);
  const amount = tax.inclusive ? split.grossMinor : split.netMinor;
  return { lines: [line('item', description, 1, amount)], split, linesIncludeTax: tax.inclusive };
}

/** A credit pack's line: "500 AI requests credit pack, valid until 4 December 2027". */
export const packLineWords = (description: string, validUntil: string | null) =>
  validUntil ? `${description}, valid until ${formatDate(validUntil)}` : description;

/** The lines' totals: as listed when the charge is the price (and its tax), else with the difference as a line. */
function totalled(
  lines: InvoiceLine[],
  listed: number,
  expected: number,
  charged: number,
  tax: TaxSettings,
): Itemised {
  if (charged === expected) {
    // Prices exclusive of tax: the tax is what was added to each seat's price, so the lines stay
    // the taxable value exactly (splitting the total again could move a paisa between them).
    const split: TaxSplit = tax.inclusive
      ? splitGross(charged, tax.rateBasisPoints)
      : { netMinor: listed, taxMinor: charged - listed, grossMinor: charged };
    return { lines, split, linesIncludeTax: tax.inclusive };
  }
  // The charge differs from the price: credit from earlier payments taken off (a move to a cheaper
  // plan, a plan change's unused period), or, should a provider charge more, an adjustment.
  const split = splitGross(charged, tax.rateBasisPoints);
  const difference = (tax.inclusive ? charged : split.netMinor) - listed;
  lines.push(
    difference < 0
      ? line('credit', 'Credit from earlier payments', 1, difference)
      : line('adjustment', 'Adjustment to the amount charged', 1, difference),
  );
  return { lines, split, linesIncludeTax: tax.inclusive };
}

/**
 * A zero-rated charge (an export) itemised at the prices without their tax: each price as it was
 * charged (see `chargeForPrice`), a coupon's discount the difference it made, and no tax.
 */
function itemiseZeroRated(facts: ChargeFacts, tax: PricingTax): Itemised {
  const net = (priceMinor: number) => chargeForPrice(priceMinor, tax);
  const { plan, coupon, pack } = facts;
  const price = plan ? Number(plan.price_minor) : 0;
  return itemiseCharge(
    {
      ...facts,
      plan: plan && { ...plan, price_minor: net(price) },
      coupon: coupon && {
        ...coupon,
        unitDiscountMinor: net(price) - net(price - coupon.unitDiscountMinor),
      },
      pack: pack && { ...pack, unitPriceMinor: net(pack.unitPriceMinor) },
      overage: facts.overage?.map((extra) => ({ ...extra, amountMinor: net(extra.amountMinor) })),
    },
    { name: tax.name, rateBasisPoints: 0, inclusive: false },
  );
}

export function itemiseCharge(facts: ChargeFacts, tax: PricingTax): Itemised {
  if (tax.zeroRated) return itemiseZeroRated(facts, tax);
  const { plan, quantity, coupon, currency } = facts;
  if (facts.pack) {
    const { description, quantity: packs, unitPriceMinor } = facts.pack;
    return totalled(
      [line('item', description, packs, unitPriceMinor)],
      unitPriceMinor * packs,
      chargeForPrice(unitPriceMinor, tax) * packs,
      facts.chargedMinor,
      tax,
    );
  }
  if (!plan) return singleLine(facts, `Plan ${facts.planId}`, tax);
  if (facts.seatsAdded) {
    const added = facts.seatsAdded.to - facts.seatsAdded.from;
    return singleLine(
      facts,
      `${plan.name} plan: ${plural(added, 'seat')} added (${facts.seatsAdded.from} to ${facts.seatsAdded.to}), prorated for the rest of the period`,
      tax,
    );
  }
  const unitPrice = Number(plan.price_minor);
  const unitDiscount = coupon?.unitDiscountMinor ?? 0;
  const words = planWords(plan, facts.recurring);
  const lines = [
    line('item', `${plan.name} plan, ${words}${facts.perSeat ? ', per seat' : ''}`, quantity, unitPrice),
  ];
  if (coupon && unitDiscount > 0)
    lines.push(
      line('discount', couponWords(coupon, currency, facts.perSeat), quantity, -unitDiscount, coupon.code),
    );
  const overage = facts.overage ?? [];
  for (const extra of overage) lines.push(line('item', extra.description, 1, extra.amountMinor));
  const listed =
    (unitPrice - unitDiscount) * quantity + overage.reduce((sum, extra) => sum + extra.amountMinor, 0);
  const expected =
    chargeForPrice(unitPrice - unitDiscount, tax) * quantity +
    overage.reduce((sum, extra) => sum + chargeForPrice(extra.amountMinor, tax), 0);
  return totalled(lines, listed, expected, facts.chargedMinor, tax);
}
