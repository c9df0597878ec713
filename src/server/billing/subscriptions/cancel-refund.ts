import type { DbOrTransaction } from '../../platform/db/database.js';
import type { PaymentRow, SubscriptionRow } from '../../platform/db/tables.js';
import { reservedOfPayment } from '../invoices/refunds-repository.js';
import { unusedCredit } from './billing-periods.js';
import { paidChargeOfPeriod } from './repository.js';

/** The id of the refund a cancellation now makes: one per subscription, however often it is asked. */
export const cancelRefundId = (subscriptionId: string) => `cancel-${subscriptionId}`;

export const CANCEL_REFUND_REASON = 'Unused part of the paid period, refunded on canceling now';

/**
 * What cancelling now gives back: the unused part of the paid period, in proportion to what its
 * charge cost (as a plan change credits it), less what was refunded of that charge already. Nothing
 * for a subscription with no paid period left (past due, suspended) or whose period is over.
 */
export async function cancelNowRefund(
  db: DbOrTransaction,
  row: SubscriptionRow,
  now: Date,
): Promise<{ payment: PaymentRow; amountMinor: number } | undefined> {
  if (row.status !== 'active' || !row.current_period_start || !row.current_period_end) return undefined;
  const paid = await paidChargeOfPeriod(db, row.id, row.current_period_end);
  if (!paid) return undefined;
  const unused = unusedCredit(
    Number(paid.amount_minor),
    { start: row.current_period_start, end: row.current_period_end },
    now,
  );
  const refunded = await reservedOfPayment(db, paid.id);
  const amountMinor = Math.min(unused, Number(paid.amount_minor) - refunded);
  return amountMinor > 0 ? { payment: paid, amountMinor } : undefined;
}
