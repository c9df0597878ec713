import type { Selectable } from 'kysely';

/**
 * What one charge billed of a license's use past a metered feature's allowance in one period
 * (0035): `pending` while a Razorpay add-on waits for the subscription's next charge, `billed` once
 * a settled charge carries it (its payment and invoice set).
 */
export interface UsageOverageChargesTable {
  id: string;
  license_id: string;
  feature_id: string;
  period_start: string;
  period_end: string;
  units: number;
  /** What the units cost, in the plan's price terms (before tax where prices exclude it). */
  amount_minor: number;
  currency: string;
  /** The price per `per_units` units when billed, for the invoice line's words. */
  price_minor: number;
  per_units: number;
  subscription_id: string;
  status: 'pending' | 'billed';
  /** Razorpay's add-on that puts it on the next invoice. */
  provider_addon_id: string | null;
  payment_id: string | null;
  invoice_id: string | null;
  created_at: string;
  billed_at: string | null;
}
export type UsageOverageChargeRow = Selectable<UsageOverageChargesTable>;

export interface UsageOverageTables {
  usage_overage_charges: UsageOverageChargesTable;
}
