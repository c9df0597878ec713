import type { PaymentRow, SubscriptionRow } from '../platform/db/tables.js';
import type { EventPublisher } from '../platform/events.js';
import type { LicensingEvent } from '../licensing/index.js';

/** A payment was received, or refunded in full or in part (`details` holds the refund). */
export interface PaymentEvent {
  type: 'payment.paid' | 'payment.refunded';
  payment: PaymentRow;
  details?: Record<string, unknown>;
}

/** A subscription started, was charged for a new period, failed a charge, or ended. */
export interface SubscriptionEvent {
  type: 'subscription.created' | 'subscription.renewed' | 'subscription.past_due' | 'subscription.cancelled';
  subscription: SubscriptionRow;
}

/** What the billing context announces. */
export type BillingEvent = PaymentEvent | SubscriptionEvent;

/** Billing grants and ends licenses, so it announces licensing's events of them too. */
export type BillingEvents = EventPublisher<BillingEvent | LicensingEvent>;
