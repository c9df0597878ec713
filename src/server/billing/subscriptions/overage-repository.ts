import type { DbOrTransaction } from '../../platform/db/database.js';
import type { PaymentProviderName, SubscriptionRow } from '../../platform/db/tables.js';

/**
 * The provider's subscriptions that keep these licenses and renew: active or past due, not
 * cancelled at the period's end (their next charge carries an add-on).
 */
export const renewingSubscriptionsOf = (
  db: DbOrTransaction,
  provider: PaymentProviderName,
  licenseIds: string[],
): Promise<SubscriptionRow[]> =>
  licenseIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('subscriptions')
        .selectAll()
        .where('provider', '=', provider)
        .where('license_id', 'in', licenseIds)
        .where('status', 'in', ['active', 'past_due'])
        .where('cancel_at_period_end', '=', 0)
        .orderBy('id')
        .execute();
