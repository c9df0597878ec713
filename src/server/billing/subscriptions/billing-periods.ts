import { utc } from '../../../shared/dates.js';
import type { SubscriptionRow } from '../../platform/db/tables.js';

export type RecurringInterval = 'month' | 'year';

export interface BillingPeriod {
  start: string;
  end: string;
}

/**
 * The period that cycle `cycle` pays for. Counted from the anchor rather than from the previous
 * period's end, so month ends do not drift: started on 31 January, the periods end on the last day
 * of February, then on 31 March.
 */
export function periodOfCycle(
  anchor: { anchorAt: string; anchorCycle: number },
  interval: RecurringInterval,
  cycle: number,
): BillingPeriod {
  const offset = cycle - anchor.anchorCycle;
  if (offset < 1) throw new Error(`cycle ${cycle} comes before the anchor (cycle ${anchor.anchorCycle})`);
  const from = utc(anchor.anchorAt);
  return {
    start: from.add(offset - 1, interval).toISOString(),
    end: from.add(offset, interval).toISOString(),
  };
}

export const anchorOf = (row: Pick<SubscriptionRow, 'anchor_at' | 'anchor_cycle'>) =>
  row.anchor_at === null ? undefined : { anchorAt: row.anchor_at, anchorCycle: row.anchor_cycle };

/**
 * The anchor from which the cycle after `cycle` starts exactly at `end` and runs one interval, as a
 * plan change re-anchors at its new period's start. For dates moved by anything but whole intervals
 * (the sandbox's time travel moves them by milliseconds, and months differ in length): the anchor
 * moved with them would start the next period before or after `end`.
 */
export const anchorEndingCycle = (
  end: string,
  cycle: number,
): Pick<SubscriptionRow, 'anchor_at' | 'anchor_cycle'> => ({ anchor_at: end, anchor_cycle: cycle });

/** The part of a paid period not yet used at `now`, as a share of the amount paid, rounded down. */
export function unusedCredit(paidMinor: number, period: BillingPeriod, now: Date): number {
  const start = Date.parse(period.start);
  const end = Date.parse(period.end);
  const left = Math.min(Math.max(end - now.getTime(), 0), end - start);
  if (end <= start || left === 0 || paidMinor <= 0) return 0;
  // In integers: a price in paise times a period in milliseconds passes 2^53.
  return Number((BigInt(paidMinor) * BigInt(left)) / BigInt(end - start));
}

export interface PlanChangeQuote {
  /** What the unused part of the current period is worth. */
  creditMinor: number;
  /** Charged now: the new plan's price less the credit and any balance, never below 0. */
  dueNowMinor: number;
  /** What is left over when the credit exceeds the new price, kept for the next charges. */
  balanceAfterMinor: number;
}

/**
 * A move to another plan starts a new period at once: the unused part of the current one (and any
 * balance kept from earlier moves) is taken off the new plan's price; what the price does not use
 * up is kept for the next charges.
 */
export function quotePlanChange(input: {
  paidMinor: number;
  period: BillingPeriod;
  balanceMinor: number;
  newPriceMinor: number;
  now: Date;
}): PlanChangeQuote {
  const creditMinor = unusedCredit(input.paidMinor, input.period, input.now);
  const available = creditMinor + input.balanceMinor;
  const dueNowMinor = Math.max(input.newPriceMinor - available, 0);
  return { creditMinor, dueNowMinor, balanceAfterMinor: available - (input.newPriceMinor - dueNowMinor) };
}

/** A renewal's amount: the plan's price less the kept balance; and the balance that remains. */
export function renewalAmount(priceMinor: number, balanceMinor: number) {
  const used = Math.min(priceMinor, balanceMinor);
  return { amountMinor: priceMinor - used, balanceAfterMinor: balanceMinor - used };
}
