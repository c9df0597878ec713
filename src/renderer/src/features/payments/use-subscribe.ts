import { useCallback, useEffect, useRef, useState } from 'react';
import type { License } from '../../../../shared/api/licenses';
import type { CouponPreview } from '../../../../shared/api/coupons';
import type { PaymentConfig } from '../../../../shared/api/payments';
import type { Plan } from '../../../../shared/api/plans';
import type {
  SubscriptionActivation,
  SubscriptionCheckout,
  VerifySubscriptionRequest,
} from '../../../../shared/api/subscriptions';
import { PRODUCT_NAME } from '../../../../shared/constants';
import { failureMessage } from '../../lib/api-errors';
import { type AppDispatch, useAppDispatch } from '../../lib/store-hooks';
import { refreshLicenses, setCurrentLicense } from '../license';
import {
  formatRecurringPrice,
  type SandboxSubscriptionResult,
  subscriptionsApi,
  useCompleteSandboxSubscriptionMutation,
  useCreateSubscriptionMutation,
  useVerifySubscriptionMutation,
} from '../subscriptions';
import type { SandboxCheckoutSubject } from './components/sandbox-checkout-modal';
import {
  CHECKOUT_THEME_COLOR,
  type CheckoutEvents,
  type CheckoutNotice,
  couponRefusal,
  declined,
} from './use-checkout';

/** A plan billed monthly or yearly: bought as a subscription. */
export const isRecurringPlan = (plan: Pick<Plan, 'billing_interval' | 'price_minor'>): boolean =>
  (plan.billing_interval === 'month' || plan.billing_interval === 'year') && plan.price_minor > 0;

export type SubscribeState =
  | { step: 'idle' }
  /** Opening a subscription to `planId`. */
  | { step: 'creating'; planId: string }
  /** The sandbox checkout is open; `busy` while Pay or Decline is being answered. */
  | {
      step: 'sandbox';
      checkout: SubscriptionCheckout;
      busy: 'pay' | 'decline' | null;
      problem: string | null;
    }
  /** Razorpay's own window is open on the subscription (or its script is loading). */
  | { step: 'razorpay'; checkout: SubscriptionCheckout }
  /** Checkout authorised the first charge; the server is checking it. */
  | { step: 'verifying'; checkout: SubscriptionCheckout }
  | { step: 'succeeded'; activation: SubscriptionActivation; sandbox: boolean };

export interface Subscribe {
  state: SubscribeState;
  notice: CheckoutNotice | null;
  /** Opens a subscription to `plan`, with the code of the coupon the buyer applied to it, if any. */
  subscribe(plan: Plan, config: PaymentConfig, couponCode?: string): Promise<void>;
  pay(): Promise<void>;
  decline(): Promise<void>;
  closeSandbox(): void;
  dismissNotice(): void;
  reset(): void;
}

/**
 * The sandbox checkout's view of a subscription's first charge; with an every-charge coupon, the
 * later charges are the discounted price too.
 */
export const subscriptionSubject = (
  checkout: SubscriptionCheckout,
  coupon?: Pick<CouponPreview, 'duration' | 'amount_after_minor'> | null,
): SandboxCheckoutSubject => {
  const { plan } = checkout.subscription;
  const recurringMinor = coupon?.duration === 'forever' ? coupon.amount_after_minor : plan.price_minor;
  return {
    planName: plan.name,
    amount: checkout.amount,
    currency: checkout.currency,
    reference: { label: 'Subscription', id: checkout.subscription_id },
    email: checkout.prefill.email,
    recurring: `${formatRecurringPrice(recurringMinor, plan.currency, plan.billing_interval)} until you cancel`,
  };
};

async function freshLicenses(dispatch: AppDispatch): Promise<License[]> {
  try {
    return await dispatch(refreshLicenses()).unwrap();
  } catch {
    return [];
  }
}

/**
 * Subscribing to a monthly or yearly plan, through the same checkout as one-off orders: open a
 * subscription → Checkout (the sandbox dialog, or Razorpay Checkout opened with `subscription_id`)
 * → verify → the subscription and its license. Each failure says what happened.
 */
export function useSubscribe({ onAbandoned, onCouponRefused }: CheckoutEvents = {}): Subscribe {
  const dispatch = useAppDispatch();
  const [create] = useCreateSubscriptionMutation();
  const [completeSandbox] = useCompleteSandboxSubscriptionMutation();
  const [verifySubscription] = useVerifySubscriptionMutation();
  const [state, setState] = useState<SubscribeState>({ step: 'idle' });
  const [notice, setNotice] = useState<CheckoutNotice | null>(null);
  const events = useRef({ onAbandoned, onCouponRefused });
  useEffect(() => {
    events.current = { onAbandoned, onCouponRefused };
  });
  const current = useRef(state);
  const update = useCallback((next: SubscribeState) => {
    current.current = next;
    setState(next);
  }, []);

  const verify = useCallback(
    async (checkout: SubscriptionCheckout, answer: VerifySubscriptionRequest): Promise<string | null> => {
      let activation: SubscriptionActivation;
      try {
        activation = await verifySubscription(answer).unwrap();
      } catch (error) {
        return failureMessage(
          error,
          `The first payment for ${checkout.subscription.plan.name} could not be verified.`,
        );
      }
      dispatch(setCurrentLicense(activation.license));
      await freshLicenses(dispatch);
      update({ step: 'succeeded', activation, sandbox: checkout.sandbox });
      return null;
    },
    [dispatch, update, verifySubscription],
  );

  const openRazorpay = useCallback(
    async (checkout: SubscriptionCheckout) => {
      update({ step: 'razorpay', checkout });
      try {
        const razorpay = await import('./razorpay-checkout');
        const Razorpay = await razorpay.loadRazorpayCheckout();
        razorpay.openRazorpaySubscriptionCheckout(
          Razorpay,
          checkout,
          { productName: PRODUCT_NAME, themeColor: CHECKOUT_THEME_COLOR },
          {
            onPaid: (response) => {
              update({ step: 'verifying', checkout });
              void verify(checkout, response).then((problem) => {
                if (!problem) return;
                update({ step: 'idle' });
                setNotice({
                  tone: 'error',
                  title: 'The subscription could not be verified',
                  message: `${problem} Your payment reference is ${response.razorpay_payment_id}.`,
                });
              });
            },
            onFailed: (failure) =>
              setNotice({
                tone: 'error',
                title: 'The payment did not go through',
                message: `${failure.error.description ?? 'The payment was declined.'} You can try again in the payment window or choose another way to pay.`,
              }),
            onDismissed: () => {
              if (current.current.step !== 'razorpay') return;
              update({ step: 'idle' });
              // A webhook may have started it meanwhile: the Subscriptions page reads it fresh.
              dispatch(subscriptionsApi.util.invalidateTags(['Subscription', 'License']));
              events.current.onAbandoned?.();
            },
          },
        );
      } catch {
        update({ step: 'idle' });
        setNotice({
          tone: 'error',
          title: 'The payment window could not be opened',
          message:
            'Razorpay Checkout did not load. Check your internet connection, allow checkout.razorpay.com if a content blocker is on, and try again. Nothing was charged.',
        });
      }
    },
    [dispatch, update, verify],
  );

  const subscribe = useCallback(
    async (plan: Plan, config: PaymentConfig, couponCode?: string) => {
      if (current.current.step !== 'idle' && current.current.step !== 'succeeded') return;
      setNotice(null);
      update({ step: 'creating', planId: plan.id });
      let checkout: SubscriptionCheckout;
      try {
        checkout = await create({ planId: plan.id, couponCode }).unwrap();
      } catch (error) {
        update({ step: 'idle' });
        const refused = couponRefusal(error);
        if (refused) events.current.onCouponRefused?.(refused);
        setNotice({
          tone: 'error',
          title: `Could not start the subscription to ${plan.name}`,
          message: failureMessage(error, 'Try again in a moment. Nothing was charged.'),
        });
        return;
      }
      if (checkout.sandbox || config.sandbox)
        update({ step: 'sandbox', checkout, busy: null, problem: null });
      else await openRazorpay(checkout);
    },
    [create, openRazorpay, update],
  );

  const answerSandbox = useCallback(
    async (outcome: 'pay' | 'decline') => {
      const open = current.current;
      if (open.step !== 'sandbox' || open.busy) return;
      const { checkout } = open;
      update({ ...open, busy: outcome, problem: null });
      let result: SandboxSubscriptionResult;
      try {
        result = await completeSandbox({ subscriptionId: checkout.subscription_id, outcome }).unwrap();
      } catch (error) {
        update({ step: 'sandbox', checkout, busy: null, problem: failureMessage(error, 'Try again.') });
        return;
      }
      if (result.outcome === 'declined') {
        update({
          step: 'sandbox',
          checkout,
          busy: null,
          problem: `${declined(result.failure.error.description)} You can pay again or close the checkout.`,
        });
        return;
      }
      const problem = await verify(checkout, result.checkout);
      if (problem) update({ step: 'sandbox', checkout, busy: null, problem });
    },
    [completeSandbox, update, verify],
  );

  const closeSandbox = useCallback(() => {
    const open = current.current;
    if (open.step !== 'sandbox' || open.busy) return;
    update({ step: 'idle' });
    events.current.onAbandoned?.();
  }, [update]);

  return {
    state,
    notice,
    subscribe,
    pay: () => answerSandbox('pay'),
    decline: () => answerSandbox('decline'),
    closeSandbox,
    dismissNotice: () => setNotice(null),
    reset: () => update({ step: 'idle' }),
  };
}
