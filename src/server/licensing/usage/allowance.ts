import type { Overage } from '../../../shared/api/plans.js';

/**
 * The most a period may count of a feature with allowance `limit` (null: unlimited) under its
 * overage policy; null when nothing stops it. Stop ends at the allowance, cap a cap past it, and
 * bill never stops.
 */
export function usageCeiling(limit: number | null, overage: Overage): number | null {
  if (limit === null || overage.policy === 'bill') return null;
  return overage.policy === 'cap' ? limit + (overage.cap ?? 0) : limit;
}

/** Units of `used` past the allowance. */
export const overAllowance = (limit: number | null, used: number) =>
  limit === null ? 0 : Math.max(0, used - limit);

/**
 * Units of `used` past the allowance that are billed as overage: those over it, less what credit
 * packs paid for (`fromPacks`, drawn from packs once the allowance was used). Every bill of
 * overage, and its projection, counts through this one.
 */
export const billableOverage = (limit: number | null, used: number, fromPacks = 0) =>
  Math.max(0, overAllowance(limit, used) - fromPacks);

/** What `units` over the allowance cost: whole blocks of `per_units`, a part of one billed whole. */
export function overageCharge(units: number, overage: Overage): number {
  if (units <= 0 || overage.policy === 'stop' || overage.price_minor === null) return 0;
  return Math.ceil(units / overage.per_units) * overage.price_minor;
}
