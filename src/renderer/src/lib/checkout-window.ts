import { t } from '@lingui/core/macro';
/*
 * What every payment window shares, whichever feature opens it (a purchase, a plan change's charge,
 * a card change): its colour and how a declined payment is said. Kept apart from
 * razorpay-checkout.ts, which is imported only on a click to pay.
 */

/** The brand colour (theme `iris.6`) for Razorpay's window, for orders and subscriptions alike. */
export const CHECKOUT_THEME_COLOR = '#4b57d6';

/**
 * "Payment declined: <why>.", once: the provider's description may already start with those words
 * (the sandbox's "Payment declined in the sandbox checkout") or end with a full stop.
 */
export function declined(description: string): string {
  const why = description.trim().replace(/[.\s]+$/, '');
  if (/^payment declined\b/i.test(why)) return `${why}.`;
  return why ? t`Payment declined: ${why}.` : t`Payment declined.`;
}
