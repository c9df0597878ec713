import type { SubscriptionRow } from '../../platform/db/tables.js';
import { conflict, notFound } from '../../platform/http-error.js';

/** The statuses in which a subscription still runs (and may be cancelled, or paid). */
export const LIVE: readonly SubscriptionRow['status'][] = ['active', 'past_due', 'suspended', 'paused'];

export const subscriptionNotFound = () => notFound('subscription_not_found', 'Subscription not found');

export const sandboxOnly = () =>
  notFound('sandbox_disabled', 'The sandbox is off: this server takes real payments through Razorpay');

export const declined = (reason: string) =>
  conflict(
    'payment_declined',
    `The payment was declined: ${reason}. Update the payment method and try again.`,
  );
