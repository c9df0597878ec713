import type { DbOrTransaction } from '../../platform/db/database.js';
import type { SubscriptionRow } from '../../platform/db/tables.js';
import { LIVE } from './refusals.js';

// The queries behind refusing a second subscription (duplicates.ts says which one is a second).

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
