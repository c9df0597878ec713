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

/** What `units` over the allowance cost: whole blocks of `per_units`, a part of one billed whole. */
export function overageCharge(units: number, overage: Overage): number {
  if (units <= 0 || overage.policy === 'stop' || overage.price_minor === null) return 0;
  return Math.ceil(units / overage.per_units) * overage.price_minor;
}

/**
 * Units of a period's use that are billed (or count against a cap): what is past the allowance
 * and was not drawn from credit packs, max(0, used − allowance − from packs).
 */
export const billableOverage = (limit: number | null, used: number, fromPacks: number) =>
  limit === null ? 0 : Math.max(0, used - limit - fromPacks);
