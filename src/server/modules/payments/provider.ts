import type { PaymentProviderName } from '../../../shared/api/payments.js';

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

/** The one interface the payments service talks to; `PAYMENT_PROVIDER` picks the implementation. */
export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** True for the local sandbox: no money moves and every answer says so. */
  readonly sandbox: boolean;
  /** The public key id the checkout is opened with. */
  readonly keyId: string;
  /** Creates an order for the amount; throws {@link PaymentProviderError} when the provider fails. */
  createOrder(input: CreateOrderInput): Promise<ProviderOrder>;
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
