import type { DbOrTransaction } from '../../platform/db/database.js';
import type { InvoiceRow, LicenseRow, SubscriptionRow } from '../../platform/db/tables.js';
import type { BillingEvents } from '../events.js';
import type { FailedCharge, PaidCharge } from './charges.js';

/**
 * What happens to subscriptions, announced in the transaction of each change: a first charge starts
 * the subscription, later ones renew it, a first failed charge makes it past due, the end of a grace
 * period suspends its license, and a cancellation (at once, or at the end of the period) ends it.
 * The past due and the end of the period carry what the customer's mail that follows them tells.
 */
export function createSubscriptionAnnouncements(events: BillingEvents) {
  return {
    paid: async (trx: DbOrTransaction, charge: PaidCharge, invoice: InvoiceRow) => {
      await events.publish(trx, {
        type: 'payment.paid',
        payment: charge.payment,
        invoice,
        paidUntil: charge.payment.period_end,
        plan: charge.plan,
      });
      await events.publish(trx, {
        type: charge.subscription.cycles <= 1 ? 'subscription.created' : 'subscription.renewed',
        subscription: charge.subscription,
      });
    },
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
