import type { PaymentProviderName } from '../../../shared/api/payments.js';

export interface CreateOrderInput {
  /** In the currency's minor unit, taken from the plan. */
  amount: number;
  currency: string;
  /** Our payment id, so the provider's dashboard links back to our record. */
  receipt: string;
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
  /** Whether `signature` is HMAC-SHA256(`orderId|paymentId`, key secret), compared in constant time. */
  isPaymentSignatureValid(orderId: string, paymentId: string, signature: string): boolean;
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
