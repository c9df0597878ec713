import type { PaymentProviderName } from '../../../shared/api/payments.js';
import { HttpError } from '../../platform/http-error.js';

export interface CreateOrderInput {
  /** In the currency's minor unit, taken from the plan. */
  amount: number;
  currency: string;
  /** Our payment id, so the provider's dashboard links back to our record. */
  receipt: string;
  notes: Record<string, string>;
}

export interface RefundInput {
  /** The provider's id of the captured payment. */
  providerPaymentId: string;
  /** In the currency's minor unit; at most what is left to refund of the payment. */
  amount: number;
  /** Our refund id, so the provider's dashboard links back to our record. */
  notes: Record<string, string>;
}

export interface ProviderOrder {
  orderId: string;
  amount: number;
  currency: string;
}

/** A subscription the provider bills by itself, each period, against a plan of its own. */
export interface SubscriptionGateway {
  /** Makes the provider's plan for one of ours at one price; answers its id. */
  createPlan(input: {
    name: string;
    description: string;
    amount: number;
    currency: string;
    interval: 'month' | 'year';
    notes: Record<string, string>;
  }): Promise<string>;
  /** Opens a subscription to the provider's plan, authorised later through Checkout; answers its id. */
  createSubscription(input: {
    providerPlanId: string;
    totalCount: number;
    notes: Record<string, string>;
    /**
     * A first period charged apart, at authorisation (a first-charge-only discount): the plan's own
     * charges start at `startAt` (Unix seconds), a period later.
     */
    upfront?: { amount: number; currency: string; name: string; startAt: number };
    /**
     * A card trial: the card is only authorised at checkout, and the first charge is made at
     * `trialEndsAt` (Unix seconds), the trial's end.
     */
    trialEndsAt?: number;
    /** Seats of a seat-based plan: the provider charges the plan's (per-seat) amount this many times. */
    quantity?: number;
  }): Promise<string>;
  /**
   * Puts an extra charge on the subscription's next invoice (Razorpay's add-on: `amount` in the
   * currency's minor unit, charged with the next renewal); answers the add-on's id.
   */
  addCharge(
    subscriptionId: string,
    input: { name: string; description: string; amount: number; currency: string },
  ): Promise<string>;
  /**
   * The id of the subscription's extra charge made since `since` (Unix seconds) whose description
   * carries `reference`, if one was: a charge asked for before whose answer was lost.
   */
  findCharge(subscriptionId: string, reference: string, since: number): Promise<string | undefined>;
  /** Cancels now, or at the end of the paid period (no further charge). */
  cancelSubscription(subscriptionId: string, atPeriodEnd: boolean): Promise<void>;
  /** Pauses now: no charge is made until it is resumed. */
  pauseSubscription(subscriptionId: string): Promise<void>;
  /** Resumes a paused subscription now: its next charge is made from now on. */
  resumeSubscription(subscriptionId: string): Promise<void>;
  /** The payment's method in the portal's words ("Card •••• 1111 (Visa)"), read from the provider. */
  paymentMethodOf(paymentId: string): Promise<string | undefined>;
  /** The subscription's status at the provider ("active", "cancelled", …). */
  statusOf(subscriptionId: string): Promise<string>;
}

/** The one interface the payments service talks to; `PAYMENT_PROVIDER` picks the implementation. */
export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** True for the local sandbox: no money moves and every answer says so. */
  readonly sandbox: boolean;
  /** The public key id the checkout is opened with. */
  readonly keyId: string;
  /** Creates an order for the amount; throws {@link PaymentProviderError} when the provider fails. */
  createOrder(input: CreateOrderInput): Promise<ProviderOrder>;
  /** Recurring billing by the provider; absent for the sandbox, whose renewals the server simulates. */
  readonly subscriptions?: SubscriptionGateway;
  /** Refunds all or part of a captured payment; throws {@link PaymentProviderError} when refused. */
  refundPayment(input: RefundInput): Promise<{ refundId: string }>;
  /** Whether `signature` is HMAC-SHA256(`orderId|paymentId`, key secret), compared in constant time. */
  isPaymentSignatureValid(orderId: string, paymentId: string, signature: string): boolean;
  /** Whether `signature` is HMAC-SHA256(`paymentId|subscriptionId`, key secret), compared in constant time. */
  isSubscriptionSignatureValid(subscriptionId: string, paymentId: string, signature: string): boolean;
  /** False when no webhook secret is configured: such webhooks cannot be trusted. */
  readonly acceptsWebhooks: boolean;
  /** Whether `signature` is HMAC-SHA256 of the raw body with the webhook secret. */
  isWebhookSignatureValid(rawBody: Buffer, signature: string | undefined): boolean;
}

/** The provider could not be reached or refused the request; `detail` is for the log, not the client. */
export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly detail: unknown,
  ) {
    super(message);
    this.name = 'PaymentProviderError';
  }
}

/**
 * What the buyer is told when the provider could not be reached or refused: a 502 saying nothing
 * was charged or changed; the provider's own answer goes to the log, not to the client.
 */
export function providerUnavailable(
  error: PaymentProviderError,
  log: { error(details: object, message: string): void },
  what: string,
): HttpError {
  log.error({ detail: error.detail }, error.message);
  return new HttpError(
    502,
    'payment_provider_unavailable',
    `The payment provider could not ${what}. Nothing was charged or changed; try again in a minute.`,
  );
}
