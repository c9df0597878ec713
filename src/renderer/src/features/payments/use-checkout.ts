import { useCallback, useEffect, useRef, useState } from 'react';
import type {
  PaymentConfig,
  PaymentOrder,
  PaymentVerification,
  VerifyPaymentRequest,
} from '../../../../shared/api/payments';
import type { Plan } from '../../../../shared/api/plans';
import { PRODUCT_NAME } from '../../../../shared/constants';
import { useAppDispatch } from '../../app/hooks';
import { refreshLicenses } from '../license/use-license-list';
import { fetchPaymentStatus } from './payments-api';
import { answerSandboxCheckout, completePurchase, startCheckout } from './payments-thunks';

/** The brand colour (theme `iris.6`) for Razorpay's window. */
const CHECKOUT_THEME_COLOR = '#4b57d6';

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
  buy(plan: Plan, config: PaymentConfig): Promise<void>;
  pay(): Promise<void>;
  decline(): Promise<void>;
  /** Closes the sandbox checkout without paying (the order stays as it is). */
  closeSandbox(): void;
  dismissNotice(): void;
  /** Back to choosing a plan after a purchase. */
  reset(): void;
}

export interface CheckoutEvents {
  /** A payment was recorded or changed (history and current plan are stale). */
  onPaymentChanged?(): void;
  /** The buyer closed a checkout without paying. */
  onAbandoned?(): void;
}

/**
 * The purchase flow: order → checkout (the sandbox dialog, or Razorpay Checkout loaded on demand)
 * → verify → the new licence. Each step's failure says what happened and that nothing was charged
 * where that is so.
 */
export function useCheckout({ onPaymentChanged, onAbandoned }: CheckoutEvents = {}): Checkout {
  const dispatch = useAppDispatch();
  const [state, setState] = useState<CheckoutState>({ step: 'idle' });
  const [notice, setNotice] = useState<CheckoutNotice | null>(null);
  const events = useRef({ onPaymentChanged, onAbandoned });
  useEffect(() => {
    events.current = { onPaymentChanged, onAbandoned };
  });
  // Read in async continuations, where the rendered `state` would be stale.
  const current = useRef(state);
  const update = useCallback((next: CheckoutState) => {
    current.current = next;
    setState(next);
  }, []);

  const verify = useCallback(
    async (order: PaymentOrder, checkout: VerifyPaymentRequest): Promise<string | null> => {
      const result = await dispatch(completePurchase(checkout));
      events.current.onPaymentChanged?.();
      if (completePurchase.fulfilled.match(result)) {
        update({ step: 'succeeded', verification: result.payload });
        return null;
      }
      return result.payload ?? `The payment for ${order.plan.name} could not be verified.`;
    },
    [dispatch, update],
  );

  /** Razorpay's window closed: a webhook may still have settled the order, so ask before saying so. */
  const dismissed = useCallback(
    async (order: PaymentOrder) => {
      if (current.current.step !== 'razorpay') return;
      update({ step: 'idle' });
      events.current.onPaymentChanged?.();
      try {
        const payment = await fetchPaymentStatus(order.order_id);
        if (payment.status === 'paid' && payment.license_id) {
          // Past the 60 s cache: the licence was issued a moment ago, by the webhook.
          const licences = await dispatch(refreshLicenses());
          const license = refreshLicenses.fulfilled.match(licences)
            ? licences.payload.find((item) => item.license_id === payment.license_id)
            : undefined;
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
    [dispatch, update],
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
              events.current.onPaymentChanged?.();
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
    [dismissed, update, verify],
  );

  const buy = useCallback(
    async (plan: Plan, config: PaymentConfig) => {
      if (current.current.step !== 'idle' && current.current.step !== 'succeeded') return;
      setNotice(null);
      update({ step: 'creating', planId: plan.id });
      const result = await dispatch(startCheckout(plan.id));
      if (!startCheckout.fulfilled.match(result)) {
        update({ step: 'idle' });
        setNotice({
          tone: 'error',
          title: `Could not start the checkout for ${plan.name}`,
          message: result.payload ?? 'Try again in a moment. Nothing was charged.',
        });
        return;
      }
      const order = result.payload;
      events.current.onPaymentChanged?.();
      // The order says which provider took it; the config only decided what the page offers.
      if (order.sandbox || config.sandbox) update({ step: 'sandbox', order, busy: null, problem: null });
      else await openRazorpay(order);
    },
    [dispatch, openRazorpay, update],
  );

  const answerSandbox = useCallback(
    async (outcome: 'pay' | 'decline') => {
      const open = current.current;
      if (open.step !== 'sandbox' || open.busy) return;
      const { order } = open;
      update({ ...open, busy: outcome, problem: null });
      const answered = await dispatch(answerSandboxCheckout({ orderId: order.order_id, outcome }));
      if (!answerSandboxCheckout.fulfilled.match(answered)) {
        update({ step: 'sandbox', order, busy: null, problem: answered.payload ?? 'Try again.' });
        return;
      }
      const result = answered.payload;
      if (result.outcome === 'declined') {
        events.current.onPaymentChanged?.();
        update({
          step: 'sandbox',
          order,
          busy: null,
          problem: `Payment declined: ${result.failure.error.description}. You can pay again or close the checkout.`,
        });
        return;
      }
      const problem = await verify(order, result.checkout);
      if (problem) update({ step: 'sandbox', order, busy: null, problem });
    },
    [dispatch, update, verify],
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
