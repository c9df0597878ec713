import type { DbOrTransaction } from '../../platform/db/database.js';
import type { SubscriptionRow } from '../../platform/db/tables.js';
import { LIVE } from './refusals.js';

// The queries behind refusing a second subscription (duplicates.ts says which one is a second).

/**
 * Holds the buyer (the organisation a seat-based plan is bought for, or the customer) until the
 * transaction ends: on PostgreSQL a row lock, so that of two first charges settling at once, on one
 * instance or two, the second waits here and then sees the first one's subscription live; SQLite
 * transactions already hold the database's write lock from their start (BEGIN IMMEDIATE).
 */
export async function lockBuyer(
  trx: DbOrTransaction,
  subscription: Pick<SubscriptionRow, 'organisation_id' | 'user_id'>,
): Promise<void> {
  if (subscription.organisation_id !== null)
    await trx
      .updateTable('organisations')
      .set((eb) => ({ updated_at: eb.ref('updated_at') }))
      .where('id', '=', subscription.organisation_id)
      .execute();
  else if (subscription.user_id !== null)
    await trx
      .updateTable('users')
      .set((eb) => ({ updated_at: eb.ref('updated_at') }))
      .where('id', '=', subscription.user_id)
      .execute();
}

/**
 * Another live subscription of the same buyer: of the organisation, or the customer's own to the
 * same plan; never the one this subscription replaces.
 */
export function findLiveTwin(
  db: DbOrTransaction,
  subscription: Pick<
    SubscriptionRow,
    'id' | 'replaces_subscription_id' | 'organisation_id' | 'user_id' | 'plan_id'
  >,
): Promise<SubscriptionRow | undefined> {
  let query = db
    .selectFrom('subscriptions')
    .selectAll()
    .where('id', '<>', subscription.id)
    .where('status', 'in', [...LIVE]);
  if (subscription.replaces_subscription_id !== null)
    query = query.where('id', '<>', subscription.replaces_subscription_id);
  query =
    subscription.organisation_id !== null
      ? query.where('organisation_id', '=', subscription.organisation_id)
      : query
          .where('user_id', '=', subscription.user_id)
          .where('plan_id', '=', subscription.plan_id)
          .where('organisation_id', 'is', null);
  return query.executeTakeFirst();
}
