import type { DbOrTransaction } from '../../platform/db/database.js';
import type { LicenseRow, SubscriptionRow } from '../../platform/db/tables.js';
import type { BillingEvents } from '../events.js';
import type { FailedCharge } from './charges.js';

/**
 * What happens to subscriptions, announced in the transaction of each change (a paid charge is
 * announced by billing's settle, which starts or renews the subscription): a first failed charge makes it past due, the end of a grace
 * period suspends its license, and a cancellation (at once, or at the end of the period) ends it.
 * The past due and the end of the period carry what the customer's mail that follows them tells.
 */
export function createSubscriptionAnnouncements(events: BillingEvents) {
  return {
    failed: async (trx: DbOrTransaction, charge: FailedCharge) => {
      if (charge.firstFailure)
        await events.publish(trx, {
          type: 'subscription.past_due',
          subscription: charge.subscription,
          declined: charge.payment,
        });
    },
    suspended: async (
      trx: DbOrTransaction,
      _subscription: SubscriptionRow,
      license: LicenseRow | undefined,
    ) => {
      if (license?.status === 'suspended') await events.publish(trx, { type: 'license.suspended', license });
    },
    /** A cancellation at once; one at the end of the period is told when it ends ({@link ended}). */
    cancelled: async (trx: DbOrTransaction, subscription: SubscriptionRow) => {
      if (subscription.status === 'cancelled')
        await events.publish(trx, { type: 'subscription.cancelled', subscription });
    },
    ended: (trx: DbOrTransaction, subscription: SubscriptionRow) =>
      events.publish(trx, { type: 'subscription.cancelled', subscription, periodOver: true }),
  };
}
