import { t } from '@lingui/core/macro';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { License } from '../../../../shared/api/licenses';
import type { PaymentConfig } from '../../../../shared/api/payments';
import type { Plan } from '../../../../shared/api/plans';
import { PRODUCT_NAME } from '../../../../shared/constants';
import { failureMessage, isApiFailure } from '../../lib/api-errors';
import { CHECKOUT_THEME_COLOR, declined } from '../../lib/checkout-window';
import type * as RazorpayCheckout from '../../lib/razorpay-checkout';
import type { RazorpayCallbacks } from '../../lib/razorpay-checkout';
import { type AppDispatch, useAppDispatch } from '../../lib/store-hooks';
import { refreshLicenses, setCurrentLicense } from '../licenses';

/** Razorpay Checkout's loader and openers, imported on a click to pay. */
type RazorpayModule = typeof RazorpayCheckout;

const paymentReferenceText = (reference: string) => t`Your payment reference is ${reference}.`;

/** The server's message when `error` refuses a coupon (used up since the preview, say), else null. */
export function couponRefusal(error: unknown): string | null {
  return isApiFailure(error) && error.code?.startsWith('coupon_') ? error.message : null;
}

/** Where a checkout is: `opened` is the order or subscription, `done` what verifying it gave. */
export type CheckoutFlowState<Opened, Done> =
  | { step: 'idle' }
  /** Opening an order or subscription for `planId`. */
  | { step: 'creating'; planId: string }
  /** The sandbox checkout is open; `busy` while Pay or Decline is being answered. */
  | { step: 'sandbox'; opened: Opened; busy: 'pay' | 'decline' | null; problem: string | null }
  /** Razorpay's own window is open (or its script is loading). */
  | { step: 'razorpay'; opened: Opened }
  /** Razorpay took the payment; the server is checking it. */
  | { step: 'verifying'; opened: Opened }
  | { step: 'succeeded'; done: Done };

/** Something the page should say outside the sandbox dialog. */
export interface CheckoutNotice {
  tone: 'error' | 'info';
  title: string;
  message: string;
}

export interface CheckoutFlow<Opened, Done> {
  state: CheckoutFlowState<Opened, Done>;
  notice: CheckoutNotice | null;
  /** Opens an order or subscription for `plan`, with the code of the coupon the buyer applied to it, if any. */
  start(plan: Plan, config: PaymentConfig, couponCode?: string): Promise<void>;
  pay(): Promise<void>;
  decline(): Promise<void>;
  /** Closes the sandbox checkout without paying (what was opened stays as it is). */
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

/** What the sandbox checkout answered: Checkout's response to verify, or a decline and why. */
export type SandboxAnswer<Answer> =
  { outcome: 'paid'; answer: Answer } | { outcome: 'declined'; description: string };

/** What differs between buying once (an order) and subscribing (a subscription). */
export interface CheckoutKind<Opened, Done, Answer extends { razorpay_payment_id: string }> {
  /** Opens the order or subscription on the server. */
  open(plan: Plan, couponCode: string | undefined): Promise<Opened>;
  /** "Could not start the checkout for Pro", said with the server's reason. */
  startFailedTitle(plan: Plan): string;
  /** Whether the sandbox took it (the page then shows the sandbox checkout). */
  isSandbox(opened: Opened): boolean;
  completeSandbox(opened: Opened, outcome: 'pay' | 'decline'): Promise<SandboxAnswer<Answer>>;
  openRazorpay(
    razorpay: RazorpayModule,
    opened: Opened,
    options: { productName: string; themeColor: string },
    callbacks: RazorpayCallbacks<Answer>,
  ): Promise<void>;
  verify(answer: Answer): Promise<Done>;
  /** "The payment for Pro could not be verified.", when the server gives no reason. */
  verifyFailed(opened: Opened): string;
  licenseOf(done: Done): License;
  /** Razorpay's window closed unpaid: what a webhook may have finished meanwhile, if anything. */
  settledMeanwhile?(opened: Opened): Promise<Done | undefined>;
  /** A payment attempt was reported or abandoned: what the page lists may have changed. */
  changed(): void;
}

/** The licenses of the user past the cache: a license was issued a moment ago. */
export async function freshLicenses(dispatch: AppDispatch): Promise<License[]> {
  try {
    return await dispatch(refreshLicenses()).unwrap();
  } catch {
    return [];
  }
}

/**
 * The one checkout: open (an order or a subscription) → pay (the sandbox dialog, or Razorpay
 * Checkout loaded on demand) → verify → the license, current at once. Each step's failure says
 * what happened, and that nothing was charged where that is so. `kind` must keep its identity.
 */
export function useCheckoutFlow<Opened, Done, Answer extends { razorpay_payment_id: string }>(
  kind: CheckoutKind<Opened, Done, Answer>,
  { onAbandoned, onCouponRefused }: CheckoutEvents = {},
): CheckoutFlow<Opened, Done> {
  const dispatch = useAppDispatch();
  const [state, setState] = useState<CheckoutFlowState<Opened, Done>>({ step: 'idle' });
  const [notice, setNotice] = useState<CheckoutNotice | null>(null);
  const events = useRef({ onAbandoned, onCouponRefused });
  useEffect(() => {
    events.current = { onAbandoned, onCouponRefused };
  });
  // Read in async continuations, where the rendered `state` would be stale.
  const current = useRef(state);
  const update = useCallback((next: CheckoutFlowState<Opened, Done>) => {
    current.current = next;
    setState(next);
  }, []);

  const succeed = useCallback(
    async (done: Done) => {
      // The new license is the current one at once, and /licenses lists it without a reload; it
      // exists whether or not this read succeeds, and the licenses page fetches again anyway.
      dispatch(setCurrentLicense(kind.licenseOf(done)));
      await freshLicenses(dispatch);
      update({ step: 'succeeded', done });
    },
    [dispatch, kind, update],
  );

  const verify = useCallback(
    async (opened: Opened, answer: Answer): Promise<string | null> => {
      let done: Done;
      try {
        done = await kind.verify(answer);
      } catch (error) {
        return failureMessage(error, kind.verifyFailed(opened));
      }
      await succeed(done);
      return null;
    },
    [kind, succeed],
  );

  /** Razorpay's window closed: a webhook may still have settled it, so ask before saying so. */
  const dismissed = useCallback(
    async (opened: Opened) => {
      if (current.current.step !== 'razorpay') return;
      update({ step: 'idle' });
      kind.changed();
      const done = await kind.settledMeanwhile?.(opened).catch(() => undefined);
      if (done) {
        update({ step: 'succeeded', done });
        return;
      }
      events.current.onAbandoned?.();
    },
    [kind, update],
  );

  const openRazorpay = useCallback(
    async (opened: Opened) => {
      update({ step: 'razorpay', opened });
      try {
        // Its own chunk, and Razorpay's script is only added to the page here, on a click to buy.
        const razorpay = await import('../../lib/razorpay-checkout');
        await kind.openRazorpay(
          razorpay,
          opened,
          { productName: PRODUCT_NAME, themeColor: CHECKOUT_THEME_COLOR },
          {
            onPaid: (answer) => {
              update({ step: 'verifying', opened });
              void verify(opened, answer).then((problem) => {
                if (!problem) return;
                update({ step: 'idle' });
                setNotice({
                  tone: 'error',
                  title: t`The payment could not be verified`,
                  message: `${problem} ${paymentReferenceText(answer.razorpay_payment_id)}`,
                });
              });
            },
            onFailed: (failure) => {
              kind.changed();
              setNotice({
                tone: 'error',
                title: t`The payment did not go through`,
                message: `${failure.error.description ?? t`The payment was declined.`} ${t`You can try again in the payment window or choose another way to pay.`}`,
              });
            },
            onDismissed: () => void dismissed(opened),
          },
        );
      } catch {
        update({ step: 'idle' });
        setNotice({
          tone: 'error',
          title: t`The payment window could not be opened`,
          message: t`Razorpay Checkout did not load. Check your internet connection, allow checkout.razorpay.com if a content blocker is on, and try again. Nothing was charged.`,
        });
      }
    },
    [dismissed, kind, update, verify],
  );

  const start = useCallback(
    async (plan: Plan, config: PaymentConfig, couponCode?: string) => {
      if (current.current.step !== 'idle' && current.current.step !== 'succeeded') return;
      setNotice(null);
      update({ step: 'creating', planId: plan.id });
      let opened: Opened;
      try {
        opened = await kind.open(plan, couponCode);
      } catch (error) {
        update({ step: 'idle' });
        const refused = couponRefusal(error);
        if (refused) events.current.onCouponRefused?.(refused);
        setNotice({
          tone: 'error',
          title: kind.startFailedTitle(plan),
          message: failureMessage(error, t`Try again in a moment. Nothing was charged.`),
        });
        return;
      }
      // What was opened says which provider took it; the config only decided what the page offers.
      if (kind.isSandbox(opened) || config.sandbox)
        update({ step: 'sandbox', opened, busy: null, problem: null });
      else await openRazorpay(opened);
    },
    [kind, openRazorpay, update],
  );

  const answerSandbox = useCallback(
    async (outcome: 'pay' | 'decline') => {
      const open = current.current;
      if (open.step !== 'sandbox' || open.busy) return;
      const { opened } = open;
      update({ ...open, busy: outcome, problem: null });
      let result: SandboxAnswer<Answer>;
      try {
        result = await kind.completeSandbox(opened, outcome);
      } catch (error) {
        update({ step: 'sandbox', opened, busy: null, problem: failureMessage(error, t`Try again.`) });
        return;
      }
      if (result.outcome === 'declined') {
        update({
          step: 'sandbox',
          opened,
          busy: null,
          problem: `${declined(result.description)} ${t`You can pay again or close the checkout.`}`,
        });
        return;
      }
      const problem = await verify(opened, result.answer);
      if (problem) update({ step: 'sandbox', opened, busy: null, problem });
    },
    [kind, update, verify],
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
    start,
    pay: () => answerSandbox('pay'),
    decline: () => answerSandbox('decline'),
    closeSandbox,
    dismissNotice: () => setNotice(null),
    reset: () => update({ step: 'idle' }),
  };
}
