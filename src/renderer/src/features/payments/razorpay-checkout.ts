import type { PaymentOrder, VerifyPaymentRequest } from '../../../../shared/api/payments';

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

interface RazorpayOptions {
  key: string;
  amount: number;
  currency: string;
  order_id: string;
  name: string;
  description: string;
  prefill?: { email?: string; name?: string };
  theme?: { color?: string };
  handler: (response: VerifyPaymentRequest) => void;
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

export interface RazorpayCallbacks {
  /** Checkout took the payment: verify these on the server. */
  onPaid(response: VerifyPaymentRequest): void;
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
