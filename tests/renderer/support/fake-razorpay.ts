/** One opening of the stand-in Checkout: its options, and the listener of failed attempts. */
export interface OpenedCheckout {
  options: Record<string, unknown>;
  failed?: (response: unknown) => void;
}

/**
 * Stands in for Razorpay's checkout.js (its script cannot load here) as `window.Razorpay`: records
 * how Checkout was opened, so a test can answer through its handler, failure listener or dismissal.
 */
export function fakeRazorpayCheckout(): OpenedCheckout[] {
  const opened: OpenedCheckout[] = [];
  window.Razorpay = class {
    entry: OpenedCheckout;
    constructor(options: Record<string, unknown>) {
      this.entry = { options };
      opened.push(this.entry);
    }
    on(_event: string, listener: (response: unknown) => void) {
      this.entry.failed = listener;
    }
    open() {}
  } as unknown as NonNullable<typeof window.Razorpay>;
  return opened;
}
