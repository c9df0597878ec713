import type { CardChangeCheckout, VerifySubscriptionRequest } from '../../../shared/api/subscriptions.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { SubscriptionRow, UserRow } from '../../platform/db/tables.js';
import { conflict } from '../../platform/http-error.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import type { PaymentProvider } from '../payments/provider.js';
import { checkCheckoutSignature } from './checkout-signature.js';
import type { ProviderSubscriptions } from './provider-plans.js';
import { LIVE } from './refusals.js';
import { updateSubscription } from './repository.js';

/**
 * Changing the card a Razorpay subscription is charged to: Checkout opened on the subscription
 * with `subscription_card_change` authorises the new card, and Razorpay charges it from then on
 * (an outstanding charge at once, reported by its `subscription.charged` webhook). The sandbox
 * has no card to change: its controls choose whether its card pays.
 */
export function createCardChanges(deps: {
  db: Db;
  clock: Clock;
  provider: PaymentProvider;
  providers: ProviderSubscriptions;
}) {
  const { db, clock, provider, providers } = deps;

  function changeable(row: SubscriptionRow): void {
    if (row.provider === 'sandbox')
      throw conflict(
        'card_change_unavailable',
        'A sandbox subscription has no card to change: choose in its sandbox controls whether the card pays',
      );
    if (row.status === 'pending')
      throw conflict(
        'subscription_not_started',
        'This subscription has not started: finish its first payment on the Purchase page',
      );
    if (!LIVE.includes(row.status))
      throw conflict('subscription_ended', 'This subscription has already ended');
  }

  return {
    /** What Checkout opens with to authorise another card for this subscription. */
    open(user: UserRow, row: SubscriptionRow): CardChangeCheckout {
      changeable(row);
      return {
        key_id: provider.keyId,
        subscription_id: row.provider_subscription_id,
        prefill: { email: user.email, ...(user.full_name ? { name: user.full_name } : {}) },
      };
    },

    /**
     * Checks Checkout's signature against OUR subscription, then shows the new card as Razorpay
     * describes the authorising payment. A replay answers the same; a refused read changes nothing.
     */
    async confirm(
      user: UserRow,
      row: SubscriptionRow,
      answer: VerifySubscriptionRequest,
      meta: RequestMeta,
    ): Promise<SubscriptionRow> {
      changeable(row);
      await checkCheckoutSignature({ db, clock, provider }, user, row, answer, meta);
      const method = await providers.call((gateway) => gateway.paymentMethodOf(answer.razorpay_payment_id));
      if (!method) return row;
      const changed = await updateSubscription(
        db,
        row.id,
        { payment_method: method, updated_at: clock.now().toISOString() },
        { statuses: [...LIVE] },
      );
      if (!changed) throw conflict('subscription_ended', 'This subscription has already ended');
      return changed;
    },
  };
}
