import type { DbOrTransaction } from '../../platform/db/database.js';
import type { SubscriptionRow } from '../../platform/db/tables.js';
import { LIVE } from './refusals.js';
import { unusedCredit } from './billing-periods.js';
import { findSubscription, lockSubscription, paidChargeOfPeriod, updateSubscription } from './repository.js';

/**
 * What the replaced subscription refunds: the credit the customer was quoted, or more when a renewal
 * was charged while the change was being paid (that whole new period is then unused); nothing when
 * its current period was never paid (past due).
 */
async function creditOf(
  trx: DbOrTransaction,
  replaced: SubscriptionRow,
  replacement: SubscriptionRow,
  now: string,
): Promise<number> {
  if (replaced.status !== 'active' || !replaced.current_period_start || !replaced.current_period_end)
    return 0;
  const paid = await paidChargeOfPeriod(trx, replaced.id, replaced.current_period_end);
  const unused = paid
    ? unusedCredit(
        Number(paid.amount_minor),
        { start: replaced.current_period_start, end: replaced.current_period_end },
        new Date(now),
      )
    : 0;
  return Math.max(replacement.replacement_credit_minor, unused);
}

/**
 * A Razorpay plan change's new subscription, on its first paid charge, takes over the license of
 * the subscription it replaces: that one ends now and owes the quoted credit back (refunded when
 * its provider side is closed). Answers the replaced subscription, or undefined when it already
 * ended (a cancellation or a second change came first): the new one then stands on its own.
 */
export async function takeOverReplaced(
  trx: DbOrTransaction,
  replacement: SubscriptionRow,
  now: string,
): Promise<SubscriptionRow | undefined> {
  if (replacement.replaces_subscription_id === null || replacement.license_id !== null) return undefined;
  await lockSubscription(trx, replacement.replaces_subscription_id);
  const replaced = await findSubscription(trx, replacement.replaces_subscription_id);
  if (!replaced || !LIVE.includes(replaced.status) || replaced.license_id === null) return undefined;
  return updateSubscription(
    trx,
    replaced.id,
    {
      status: 'cancelled',
      ended_at: now,
      cancel_requested_at: replaced.cancel_requested_at ?? now,
      next_retry_at: null,
      closeout_refund_minor: await creditOf(trx, replaced, replacement, now),
      updated_at: now,
    },
    { version: replaced.version },
  );
}
