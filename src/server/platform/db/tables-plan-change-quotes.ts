import type { Selectable } from 'kysely';

/** A plan change's quote as shown to the customer, kept while it holds (migration 0025). */
export interface PlanChangeQuotesTable {
  id: string;
  subscription_id: string;
  /** The subscription's version when quoted: a renewal or any other change since refuses the quote. */
  subscription_version: number;
  plan_id: string;
  credit_minor: number;
  balance_minor: number;
  due_now_minor: number;
  balance_after_minor: number;
  refund_minor: number;
  currency: string;
  /** The new period it showed: the change starts it, so the license ends when the quote said. */
  period_start: string;
  period_end: string;
  created_at: string;
  expires_at: string;
}
export type PlanChangeQuoteRow = Selectable<PlanChangeQuotesTable>;

// The subscriptions' kept quotes, apart from tables.ts so their change stays in one place.
export interface PlanChangeQuoteTables {
  plan_change_quotes: PlanChangeQuotesTable;
}
