import { t } from '@lingui/core/macro';
import { useCallback } from 'react';
import type { SubscriptionActivation, SubscriptionCheckout } from '../../../../shared/api/subscriptions';
import { PRODUCT_NAME } from '../../../../shared/constants';
import { failureMessage } from '../../lib/api-errors';
import { CHECKOUT_THEME_COLOR } from '../../lib/checkout-window';
import { subscriptionMessages, useVerifySubscriptionMutation } from './subscriptions-endpoints';

export type ReplacementCheckoutResult =
  | { outcome: 'paid'; activation: SubscriptionActivation }
  /** The customer closed Razorpay's window: nothing was charged. */
  | { outcome: 'dismissed' }
  | { outcome: 'failed'; message: string };

/**
 * Paying a Razorpay plan change: the server opened a new subscription to the new plan, Razorpay
 * Checkout takes its first charge, and the server's verify makes it take over the license. A
 * declined card keeps Razorpay's window open for another try, as at any checkout.
 */
export function useReplacementCheckout(): (
  checkout: SubscriptionCheckout,
) => Promise<ReplacementCheckoutResult> {
  const [verify] = useVerifySubscriptionMutation();
  return useCallback(
    async (checkout) => {
      let opened;
      try {
        const razorpay = await import('../../lib/razorpay-checkout');
        opened = { razorpay, Razorpay: await razorpay.loadRazorpayCheckout() };
      } catch {
        return {
          outcome: 'failed',
          message: t`Razorpay Checkout did not load. Check your internet connection, allow checkout.razorpay.com if a content blocker is on, and try again. Nothing was charged.`,
        };
      }
      return new Promise<ReplacementCheckoutResult>((resolve) => {
        opened.razorpay.openRazorpaySubscriptionCheckout(
          opened.Razorpay,
          { ...checkout, description: checkout.subscription.plan.name },
          { productName: PRODUCT_NAME, themeColor: CHECKOUT_THEME_COLOR },
          {
            onPaid: (answer) =>
              void verify(answer)
                .unwrap()
                .then(
                  (activation) => resolve({ outcome: 'paid', activation }),
                  (error: unknown) => {
                    const reference = answer.razorpay_payment_id;
                    resolve({
                      outcome: 'failed',
                      message: `${failureMessage(error, subscriptionMessages.verifyFailed)} ${t`Your payment reference is ${reference}.`}`,
                    });
                  },
                ),
            // Razorpay says why in its own window and keeps it open for another way to pay.
            onFailed: () => undefined,
            onDismissed: () => resolve({ outcome: 'dismissed' }),
          },
        );
      });
    },
    [verify],
  );
}
