import type { DbOrTransaction } from '../../platform/db/database.js';
import type { SubscriptionStatus } from '../../platform/db/tables.js';

export const paymentsOfUser = (db: DbOrTransaction, userId: string) =>
  db.selectFrom('payments').selectAll().where('user_id', '=', userId).orderBy('created_at', 'asc').execute();

export const allSubscriptionsOfUser = (db: DbOrTransaction, userId: string) =>
  db
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'asc')
    .execute();

export const invoiceIdsOfUser = (db: DbOrTransaction, userId: string) =>
  db
    .selectFrom('invoices')
    .select(['id', 'number', 'kind'])
    .where('user_id', '=', userId)
    .orderBy('issued_at', 'asc')
    .orderBy('number', 'asc')
    .execute();

/**
 * Ends the account's live subscriptions now, charging no more: the scheduler's provider closing
 * tells Razorpay of each (an ended row not yet closed there), as for any other that ended.
 */
export async function endSubscriptionsOfUser(
  db: DbOrTransaction,
  userId: string,
  live: readonly SubscriptionStatus[],
  now: string,
): Promise<number> {
  const result = await db
    .updateTable('subscriptions')
    .set({
      status: 'cancelled',
      ended_at: now,
      cancel_requested_at: now,
      next_retry_at: null,
      updated_at: now,
    })
    .where('user_id', '=', userId)
    .where('status', 'in', [...live])
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The billing address kept for future invoices (those issued keep their own copy). */
export async function deleteBillingDetailsOfUser(db: DbOrTransaction, userId: string): Promise<void> {
  await db.deleteFrom('billing_details').where('user_id', '=', userId).execute();
}
