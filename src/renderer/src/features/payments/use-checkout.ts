import { useCallback, useEffect, useRef, useState } from 'react';
import type { License } from '../../../../shared/api/licenses';
import type {
  PaymentConfig,
  PaymentOrder,
  PaymentVerification,
  VerifyPaymentRequest,
} from '../../../../shared/api/payments';
import type { Plan } from '../../../../shared/api/plans';
import { PRODUCT_NAME } from '../../../../shared/constants';
import { failureMessage, isApiFailure } from '../../lib/api-errors';
import { type AppDispatch, useAppDispatch } from '../../lib/store-hooks';
import { refreshLicenses, setCurrentLicense } from '../license';
import {
  paymentsApi,
  type SandboxCheckoutResult,
  useCompleteSandboxCheckoutMutation,
  useCreatePaymentOrderMutation,
  useVerifyPaymentMutation,
} from './payments-endpoints';

/** The brand colour (theme `iris.6`) for Razorpay's window, for orders and subscriptions alike. */
export const CHECKOUT_THEME_COLOR = '#4b57d6';

/**
 * "Payment declined: <why>.", once: the provider's description may already start with those words
 * (the sandbox's "Payment declined in the sandbox checkout") or end with a full stop.
 */
export function declined(description: string): string {
  const why = description.trim().replace(/[.\s]+$/, '');
  if (/^payment declined\b/i.test(why)) return `${why}.`;
  return why ? `Payment declined: ${why}.` : 'Payment declined.';
}

export type CheckoutState =
  | { step: 'idle' }
  /** Opening an order for `planId`. */
  | { step: 'creating'; planId: string }
  /** The sandbox checkout is open on `order`; `busy` while Pay or Decline is being answered. */
  | { step: 'sandbox'; order: PaymentOrder; busy: 'pay' | 'decline' | null; problem: string | null }
  /** Razorpay's own window is open on `order` (or its script is loading). */
  | { step: 'razorpay'; order: PaymentOrder }
  /** Razorpay took the payment; the server is checking it. */
  | { step: 'verifying'; order: PaymentOrder }
  | { step: 'succeeded'; verification: PaymentVerification };

/** Something the page should say outside the sandbox dialog. */
export interface CheckoutNotice {
  tone: 'error' | 'info';
  title: string;
  message: string;
}

export interface Checkout {
  state: CheckoutState;
  notice: CheckoutNotice | null;
  /** Opens an order for `plan`, with the code of the coupon the buyer applied to it, if any. */
  buy(plan: Plan, config: PaymentConfig, couponCode?: string): Promise<void>;
  pay(): Promise<void>;
  decline(): Promise<void>;
  /** Closes the sandbox checkout without paying (the order stays as it is). */
  closeSandbox(): void;
  dismissNotice(): void;
  /** Back to choosing a plan after a purchase. */
  reset(): void;
}

export interface CheckoutEvents {
  /** The buyer closed a checkout without paying. */
  onAbandoned?(): void;
  /** The server refused the coupon the checkout was opened with (`coupon_*`): its message. */
  onCouponRefused?(message: string): void;
}

/** The server's message when `error` refuses a coupon (used up since the preview, say), else null. */
export function couponRefusal(error: unknown): string | null {
  return isApiFailure(error) && error.code?.startsWith('coupon_') ? error.message : null;
}

/** The licenses of the user past the cache: a license was issued a moment ago. */
async function freshLicenses(dispatch: AppDispatch): Promise<License[]> {
  try {
    return await dispatch(refreshLicenses()).unwrap();
  } catch {
    return [];
  }
}

/**
 * The purchase flow: order → checkout (the sandbox dialog, or Razorpay Checkout loaded on demand)
 * → verify → the new license. Each step's failure says what happened and that nothing was charged
 * where that is so.
 */
export function useCheckout({ onAbandoned, onCouponRefused }: CheckoutEvents = {}): Checkout {
  const dispatch = useAppDispatch();
  const [createOrder] = useCreatePaymentOrderMutation();
  const [completeSandbox] = useCompleteSandboxCheckoutMutation();
  const [verifyPayment] = useVerifyPaymentMutation();
  const [state, setState] = useState<CheckoutState>({ step: 'idle' });
  const [notice, setNotice] = useState<CheckoutNotice | null>(null);
  const events = useRef({ onAbandoned, onCouponRefused });
  useEffect(() => {
    events.current = { onAbandoned, onCouponRefused };
  });
  // Razorpay reports to the page what the server learns by webhook: the history may have changed.
  const paymentChanged = useCallback(
    () => dispatch(paymentsApi.util.invalidateTags(['Payment'])),
    [dispatch],
  );
  // Read in async continuations, where the rendered `state` would be stale.
  const current = useRef(state);
  const update = useCallback((next: CheckoutState) => {
    current.current = next;
    setState(next);
  }, []);

  const verify = useCallback(
    async (order: PaymentOrder, checkout: VerifyPaymentRequest): Promise<string | null> => {
      let verification: PaymentVerification;
      try {
        verification = await verifyPayment(checkout).unwrap();
      } catch (error) {
        return failureMessage(error, `The payment for ${order.plan.name} could not be verified.`);
      }
      // The new license is the current one at once, and /licenses lists it without a reload; it
      // exists whether or not this read succeeds, and the licenses page fetches again anyway.
      dispatch(setCurrentLicense(verification.license));
      await freshLicenses(dispatch);
      update({ step: 'succeeded', verification });
      return null;
    },
    [dispatch, update, verifyPayment],
  );

  /** Razorpay's window closed: a webhook may still have settled the order, so ask before saying so. */
  const dismissed = useCallback(
    async (order: PaymentOrder) => {
      if (current.current.step !== 'razorpay') return;
      update({ step: 'idle' });
      paymentChanged();
      try {
        const payment = await dispatch(
          paymentsApi.endpoints.getPaymentStatus.initiate(order.order_id, {
            subscribe: false,
            forceRefetch: true,
          }),
        ).unwrap();
        if (payment.status === 'paid' && payment.license_id) {
          // The webhook issued the license: the current plan shows it too.
          dispatch(paymentsApi.util.invalidateTags(['License']));
          const licenses = await freshLicenses(dispatch);
          const license = licenses.find((item) => item.license_id === payment.license_id);
          if (license) {
            update({ step: 'succeeded', verification: { payment, license, sandbox: payment.sandbox } });
            return;
          }
        }
      } catch {
        // The status is only a courtesy check; the history shows the outcome either way.
      }
      events.current.onAbandoned?.();
    },
    [dispatch, paymentChanged, update],
  );

  const openRazorpay = useCallback(
    async (order: PaymentOrder) => {
      update({ step: 'razorpay', order });
      try {
        // Its own chunk, and Razorpay's script is only added to the page here, on a click to buy.
        const razorpay = await import('./razorpay-checkout');
        const Razorpay = await razorpay.loadRazorpayCheckout();
        razorpay.openRazorpayCheckout(
          Razorpay,
          order,
          { productName: PRODUCT_NAME, themeColor: CHECKOUT_THEME_COLOR },
          {
            onPaid: (response) => {
              update({ step: 'verifying', order });
              void verify(order, response).then((problem) => {
                if (!problem) return;
                update({ step: 'idle' });
                setNotice({
                  tone: 'error',
                  title: 'The payment could not be verified',
                  message: `${problem} Your payment reference is ${response.razorpay_payment_id}.`,
                });
              });
            },
            onFailed: (failure) => {
              paymentChanged();
              setNotice({
                tone: 'error',
                title: 'The payment did not go through',
                message: `${failure.error.description ?? 'The payment was declined.'} You can try again in the payment window or choose another way to pay.`,
              });
            },
            onDismissed: () => void dismissed(order),
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
    [dismissed, paymentChanged, update, verify],
  );

  const buy = useCallback(
    async (plan: Plan, config: PaymentConfig, couponCode?: string) => {
      if (current.current.step !== 'idle' && current.current.step !== 'succeeded') return;
      setNotice(null);
      update({ step: 'creating', planId: plan.id });
      let order: PaymentOrder;
      try {
        order = await createOrder({ planId: plan.id, couponCode }).unwrap();
      } catch (error) {
        update({ step: 'idle' });
        const refused = couponRefusal(error);
        if (refused) events.current.onCouponRefused?.(refused);
        setNotice({
          tone: 'error',
          title: `Could not start the checkout for ${plan.name}`,
          message: failureMessage(error, 'Try again in a moment. Nothing was charged.'),
        });
        return;
      }
      // The order says which provider took it; the config only decided what the page offers.
      if (order.sandbox || config.sandbox) update({ step: 'sandbox', order, busy: null, problem: null });
      else await openRazorpay(order);
    },
    [createOrder, openRazorpay, update],
  );

  const answerSandbox = useCallback(
    async (outcome: 'pay' | 'decline') => {
      const open = current.current;
      if (open.step !== 'sandbox' || open.busy) return;
      const { order } = open;
      update({ ...open, busy: outcome, problem: null });
      let result: SandboxCheckoutResult;
      try {
        result = await completeSandbox({ orderId: order.order_id, outcome }).unwrap();
      } catch (error) {
        update({ step: 'sandbox', order, busy: null, problem: failureMessage(error, 'Try again.') });
        return;
      }
      if (result.outcome === 'declined') {
        update({
          step: 'sandbox',
          order,
          busy: null,
          problem: `${declined(result.failure.error.description)} You can pay again or close the checkout.`,
        });
        return;
      }
      const problem = await verify(order, result.checkout);
      if (problem) update({ step: 'sandbox', order, busy: null, problem });
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
    buy,
    pay: () => answerSandbox('pay'),
    decline: () => answerSandbox('decline'),
    closeSandbox,
    dismissNotice: () => setNotice(null),
    reset: () => update({ step: 'idle' }),
  };
}
