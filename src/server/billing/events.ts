import type {
  InvoiceRow,
  LicenseRow,
  PaymentRow,
  PlanRow,
  RefundRow,
  SubscriptionRow,
} from '../platform/db/tables.js';
import type { EventPublisher } from '../platform/events.js';
import type { LicensingEvent } from '../licensing/index.js';

/** A payment was received: with the invoice issued for it in the same transaction, and what it bought. */
export interface PaymentPaidEvent {
  type: 'payment.paid';
  payment: PaymentRow;
  invoice: InvoiceRow;
  /** The end of the time the payment bought; null for a lifetime. */
  paidUntil: string | null;
  /** Seats bought for an organisation, when that is what the payment was for. */
  seats?: { organisationName: string; from: number; to: number };
  /** The payment's plan, when the publisher holds it already (listeners read it otherwise). */
  plan?: PlanRow;
}

/** A payment was refunded, in full or in part: the refund as processed, with its credit note. */
export interface PaymentRefundedEvent {
  type: 'payment.refunded';
  payment: PaymentRow;
  /** The refund as the webhook tells it. */
  details: Record<string, unknown>;
  refund: RefundRow;
  /** The invoice the credit note corrects. */
  invoice: InvoiceRow;
  creditNote: { id: string; number: string };
  /** An administrator's refund, not the server's own (a plan change's credit, a second subscription). */
  byAdministrator: boolean;
}

export type PaymentEvent = PaymentPaidEvent | PaymentRefundedEvent;

/**
 * A subscription started, was charged for a new period, failed a charge, was paused (asked for:
 * the pause starts when the paid period ends) or resumed from a pause (early, on time, or a pause
 * to come withdrawn), or ended.
 */
export interface SubscriptionEvent {
  type:
    | 'subscription.created'
    | 'subscription.renewed'
    | 'subscription.past_due'
    | 'subscription.paused'
    | 'subscription.resumed'
    | 'subscription.cancelled';
  subscription: SubscriptionRow;
  /**
   * On `subscription.past_due`: the declined charge, which the customer is told of. Not named
   * `payment`, so the webhook still tells the subscription.
   */
  declined?: PaymentRow;
  /**
   * On `subscription.cancelled`: the period of a subscription cancelled at its end ran out (not a
   * cancellation at once), so the customer is told the license expired.
   */
  periodOver?: true;
  /** On `subscription.resumed`: resumed before the pause's end (by the customer or an administrator). */
  early?: boolean;
  /** On `subscription.resumed`: the pause had not started, and was withdrawn. */
  withdrawn?: boolean;
}

/** What the billing context announces, each the webhook of the same name. */
export type BillingEvent = PaymentEvent | SubscriptionEvent;

/** A second subscription's first charge, refused: its payment is refunded in full. */
export interface RefusedCharge {
  payment: PaymentRow;
  /** The subscription the charge would have started, now cancelled. */
  subscription: SubscriptionRow;
  /** The live subscription of the same plan (or organisation) that stays. */
  twin: SubscriptionRow;
}

/** What a cancellation does with money, each part only when it is more than nothing. */
export interface CancelledMoney {
  /** Ended now: the unused part of the paid period, refunded. */
  refund?: { amountMinor: number; currency: string };
  /** The credit kept from a move to a cheaper plan, refunded. */
  creditRefund?: { amountMinor: number; currency: string };
  /** The part of that credit no charge could take back: not refunded, and taken off no charge. */
  creditKept?: { amountMinor: number; currency: string };
}

/**
 * What billing announces to itself only, with no webhook: changes a customer is mailed about that
 * integrators hear of otherwise (a suspension as `license.suspended`, a cancellation as
 * `subscription.cancelled` once it takes effect) or not at all (a cancellation taken back, a refused second
 * subscription). A suspension is told for a license revoked or expired meanwhile too.
 */
export type SubscriptionNotice =
  | { type: 'subscription.charge_refused'; charge: RefusedCharge }
  | { type: 'subscription.suspended'; subscription: SubscriptionRow; license: LicenseRow | undefined }
  | { type: 'subscription.cancellation_requested'; subscription: SubscriptionRow; money: CancelledMoney }
  | { type: 'subscription.cancellation_withdrawn'; subscription: SubscriptionRow };

/** Billing grants and ends licenses, so it announces licensing's events of them too. */
export type BillingEvents = EventPublisher<BillingEvent | LicensingEvent | SubscriptionNotice>;
