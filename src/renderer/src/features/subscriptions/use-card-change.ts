import { t } from '@lingui/core/macro';
import { notifications } from '@mantine/notifications';
import { useCallback, useRef, useState } from 'react';
import type { Subscription } from '../../../../shared/api/subscriptions';
import { PRODUCT_NAME } from '../../../../shared/constants';
import { showToast } from '../../components/data/toast';
import { failureMessage } from '../../lib/api-errors';
import { CHECKOUT_THEME_COLOR, declined } from '../../lib/checkout-window';
import { paymentMethodText } from './subscription-format';
import {
  subscriptionMessages,
  useConfirmCardChangeMutation,
  useOpenCardChangeMutation,
} from './subscriptions-endpoints';

export interface CardChange {
  /** Opens Razorpay Checkout to authorise another card for the subscription. */
  start(): Promise<void>;
  /** From the click until Checkout's window closes or the new card is confirmed. */
  busy: boolean;
}

const notChanged = (message: string) =>
  notifications.show({ color: 'red', title: t`The card was not changed`, message });

/**
 * Changing the card of a Razorpay subscription: the server names the subscription, Razorpay
 * Checkout authorises the new card, the server checks Checkout's signed answer and shows the card.
 * Razorpay charges the new card from then on, an outstanding charge at once.
 */
export function useCardChange(subscription: Subscription): CardChange {
  const [open] = useOpenCardChangeMutation();
  const [confirm] = useConfirmCardChangeMutation();
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const finish = useCallback(() => {
    running.current = false;
    setBusy(false);
  }, []);

  const start = useCallback(async () => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    const planName = subscription.plan.name;
    let checkout;
    try {
      checkout = await open(subscription.id).unwrap();
    } catch (error) {
      notChanged(failureMessage(error, subscriptionMessages.paymentMethodFailed));
      finish();
      return;
    }
    try {
      const razorpay = await import('../../lib/razorpay-checkout');
      const Razorpay = await razorpay.loadRazorpayCheckout();
      razorpay.openRazorpaySubscriptionCheckout(
        Razorpay,
        { ...checkout, description: t`New card for ${planName}` },
        { productName: PRODUCT_NAME, themeColor: CHECKOUT_THEME_COLOR, cardChange: true },
        {
          onPaid: (answer) => {
            void confirm({ id: subscription.id, answer })
              .unwrap()
              .then(
                (changed) => {
                  const method = changed.payment_method ? paymentMethodText(changed.payment_method) : null;
                  showToast({
                    title: t`Card updated`,
                    message: method
                      ? t`${planName} is charged to ${method} from now on.`
                      : t`${planName} is charged to the new card from now on.`,
                  });
                },
                (error: unknown) => {
                  const reference = answer.razorpay_payment_id;
                  notChanged(
                    `${failureMessage(error, subscriptionMessages.paymentMethodFailed)} ${t`Your payment reference is ${reference}.`}`,
                  );
                },
              )
              .finally(finish);
          },
          // Razorpay keeps its window open for another card; this says why the last one failed.
          onFailed: (failure) =>
            notChanged(
              `${declined(failure.error.description ?? '')} ${t`Try another card in the payment window.`}`,
            ),
          onDismissed: finish,
        },
      );
    } catch {
      notChanged(
        t`Razorpay Checkout did not load. Check your internet connection, allow checkout.razorpay.com if a content blocker is on, and try again.`,
      );
      finish();
    }
  }, [confirm, finish, open, subscription.id, subscription.plan.name]);

  return { start, busy };
}
