import type { PaymentOrder, VerifyPaymentRequest } from '../../../shared/api/payments';
import type { CardChangeCheckout, VerifySubscriptionRequest } from '../../../shared/api/subscriptions';

/**
 * Razorpay Checkout's script. PCI rules want it loaded from Razorpay itself (never bundled or
 * self-hosted), so it is added to the page only when a buyer clicks buy on a Razorpay server.
 * The CSPs of the server (src/server/app.ts) and the desktop (src/main/security.ts) allow it.
 */
export const RAZORPAY_CHECKOUT_URL = 'https://checkout.razorpay.com/v1/checkout.js';

/** The failure Razorpay reports to `payment.failed` (the modal stays open for another try). */
export interface RazorpayFailure {
  error: { code?: string; description?: string; reason?: string; metadata?: { payment_id?: string } };
}

/** Checkout is opened on an order (one payment) or on a subscription (its first charge and the mandate). */
interface RazorpayOptions {
  key: string;
  /** An order's; a subscription's first charge comes from its plan on Razorpay's side. */
  amount?: number;
  currency?: string;
  order_id?: string;
  subscription_id?: string;
  /** Opened on a live subscription: authorises another card instead of a first charge. */
  subscription_card_change?: 0 | 1;
  name: string;
  description: string;
  prefill?: { email?: string; name?: string };
  theme?: { color?: string };
  handler: (response: VerifyPaymentRequest & VerifySubscriptionRequest) => void;
  modal?: { ondismiss?: () => void; escape?: boolean; confirm_close?: boolean };
}

interface RazorpayInstance {
  open(): void;
  on(event: 'payment.failed', listener: (response: RazorpayFailure) => void): void;
}

type RazorpayConstructor = new (options: RazorpayOptions) => RazorpayInstance;

declare global {
  interface Window {
    Razorpay?: RazorpayConstructor;
  }
}

/** The load under way, shared by clicks that come while it runs (afterwards `window.Razorpay` answers). */
let loading: Promise<RazorpayConstructor> | null = null;

/** Adds checkout.js to the page once; a failed load may be tried again. */
export function loadRazorpayCheckout(doc: Document = document): Promise<RazorpayConstructor> {
  const view = doc.defaultView;
  if (view?.Razorpay) return Promise.resolve(view.Razorpay);
  loading ??= new Promise<RazorpayConstructor>((resolve, reject) => {
    const script = doc.createElement('script');
    script.src = RAZORPAY_CHECKOUT_URL;
    script.async = true;
    script.onload = () => {
      if (view?.Razorpay) resolve(view.Razorpay);
      else reject(new Error('Razorpay Checkout loaded but did not start'));
    };
    script.onerror = () => {
      script.remove();
      reject(new Error('Razorpay Checkout could not be loaded'));
    };
    doc.head.append(script);
  }).finally(() => {
    loading = null;
  });
  return loading;
}

export interface RazorpayCallbacks<Paid = VerifyPaymentRequest> {
  /** Checkout took the payment: verify these on the server. */
  onPaid(response: Paid): void;
  /** An attempt failed; Razorpay keeps its window open so the buyer can try another way. */
  onFailed(failure: RazorpayFailure): void;
  /** The buyer closed the window without paying. */
  onDismissed(): void;
}

/** Opens Razorpay Checkout on an order the server created (amount and currency are the order's). */
export function openRazorpayCheckout(
  Razorpay: RazorpayConstructor,
  order: PaymentOrder,
  { productName, themeColor }: { productName: string; themeColor: string },
  callbacks: RazorpayCallbacks,
): void {
  const checkout = new Razorpay({
    key: order.key_id,
    amount: order.amount,
    currency: order.currency,
    order_id: order.order_id,
    name: productName,
    description: order.plan.name,
    prefill: order.prefill,
    theme: { color: themeColor },
    handler: callbacks.onPaid,
    modal: { ondismiss: callbacks.onDismissed, escape: true, confirm_close: true },
  });
  checkout.on('payment.failed', callbacks.onFailed);
  checkout.open();
}

/**
 * Opens Razorpay Checkout on a subscription: to authorise its first charge (a subscription the
 * server just opened), or with `cardChange` to authorise another card for a live one (Razorpay
 * charges it from then on, an outstanding charge at once). Either way Checkout hands back
 * `razorpay_subscription_id`, `razorpay_payment_id` and the signature.
 */
export function openRazorpaySubscriptionCheckout(
  Razorpay: RazorpayConstructor,
  subscription: Pick<CardChangeCheckout, 'key_id' | 'subscription_id' | 'prefill'> & { description: string },
  {
    productName,
    themeColor,
    cardChange = false,
  }: { productName: string; themeColor: string; cardChange?: boolean },
  callbacks: RazorpayCallbacks<VerifySubscriptionRequest>,
): void {
  const checkout = new Razorpay({
    key: subscription.key_id,
    subscription_id: subscription.subscription_id,
    ...(cardChange ? { subscription_card_change: 1 as const } : {}),
    name: productName,
    description: subscription.description,
    prefill: subscription.prefill,
    theme: { color: themeColor },
    handler: (response) =>
      callbacks.onPaid({
        razorpay_subscription_id: response.razorpay_subscription_id,
        razorpay_payment_id: response.razorpay_payment_id,
        razorpay_signature: response.razorpay_signature,
      }),
    modal: { ondismiss: callbacks.onDismissed, escape: true, confirm_close: true },
  });
  checkout.on('payment.failed', callbacks.onFailed);
  checkout.open();
}
