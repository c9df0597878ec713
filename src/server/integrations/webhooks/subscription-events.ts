import type { Clock } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { LicenseRow, SubscriptionRow } from '../../platform/db/tables.js';
// eslint-disable-next-line boundaries/dependencies -- debt of the move into contexts (docs/architecture.md)
import type { FailedCharge, PaidCharge } from '../../billing/subscriptions/charges.js';
import { licenseEventData, paymentEventData, subscriptionEventData } from './event-data.js';
import { queueWebhookEvent } from './queue.js';

/**
 * The webhook events of what happens to subscriptions, as effects the subscription area runs in
 * the transaction of each change (beside its mail): a first charge starts the subscription, later
 * ones renew it, a first failed charge makes it past due, the end of a grace period suspends its
 * license, and a cancellation (at once, or at the end of the period) ends it.
 */
export function createSubscriptionWebhookEffects(clock: Clock) {
  const queue = (trx: DbOrTransaction, ...events: Parameters<typeof queueWebhookEvent>[2][]) =>
    events.reduce<Promise<unknown>>(
      (previous, event) => previous.then(() => queueWebhookEvent(trx, clock, event)),
      Promise.resolve(),
    );
  return {
    paid: (trx: DbOrTransaction, charge: PaidCharge) =>
      queue(
        trx,
        { type: 'payment.paid', data: paymentEventData(charge.payment) },
        {
          type: charge.subscription.cycles <= 1 ? 'subscription.created' : 'subscription.renewed',
          data: subscriptionEventData(charge.subscription),
        },
      ),
    failed: (trx: DbOrTransaction, charge: FailedCharge) =>
      charge.firstFailure
        ? queue(trx, { type: 'subscription.past_due', data: subscriptionEventData(charge.subscription) })
        : Promise.resolve(),
    suspended: (trx: DbOrTransaction, _subscription: SubscriptionRow, license: LicenseRow | undefined) =>
      license?.status === 'suspended'
        ? queue(trx, { type: 'license.suspended', data: licenseEventData(license) })
        : Promise.resolve(),
    /** A cancellation at once; one at the end of the period is told when it ends ({@link ended}). */
    cancelled: (trx: DbOrTransaction, subscription: SubscriptionRow) =>
      subscription.status === 'cancelled'
        ? queue(trx, { type: 'subscription.cancelled', data: subscriptionEventData(subscription) })
        : Promise.resolve(),
    ended: (trx: DbOrTransaction, subscription: SubscriptionRow) =>
      queue(trx, { type: 'subscription.cancelled', data: subscriptionEventData(subscription) }),
  };
}
