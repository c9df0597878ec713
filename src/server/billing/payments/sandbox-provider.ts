import { randomToken } from '../../platform/crypto.js';
import type { CreateOrderInput, PaymentProvider, ProviderOrder } from './provider.js';
import { paymentSignature, signatureMatches, subscriptionSignature, webhookSignature } from './signatures.js';

export const SANDBOX_KEY_ID = 'sandbox';

export interface SandboxPaymentProvider extends PaymentProvider {
  readonly name: 'sandbox';
  readonly sandbox: true;
  /** A new payment attempt id, shaped like Razorpay's but marked as a sandbox one. */
  newPaymentId(): string;
  /** The signature Razorpay Checkout would hand the page for this order and payment. */
  signPayment(orderId: string, paymentId: string): string;
  /** The signature Razorpay Checkout would hand the page for this subscription's first payment. */
  signSubscription(subscriptionId: string, paymentId: string): string;
}

/**
 * Razorpay's order and signature contract with a local secret instead of an account, so the
 * whole purchase works on a fresh machine. The secret also signs sandbox webhooks.
 */
export function createSandboxProvider(secret: string): SandboxPaymentProvider {
  return {
    name: 'sandbox',
    sandbox: true,
    keyId: SANDBOX_KEY_ID,
    acceptsWebhooks: true,
    async createOrder({ amount, currency }: CreateOrderInput): Promise<ProviderOrder> {
      return { orderId: `order_sandbox_${randomToken(12)}`, amount, currency };
    },
    newPaymentId: () => `pay_sandbox_${randomToken(12)}`,
    // No money moved, so none goes back: the refund is recorded locally under a sandbox id.
    refundPayment: async () => ({ refundId: `rfnd_sandbox_${randomToken(12)}` }),
    signPayment: (orderId, paymentId) => paymentSignature(orderId, paymentId, secret),
    isPaymentSignatureValid: (orderId, paymentId, signature) =>
      signatureMatches(paymentSignature(orderId, paymentId, secret), signature),
    signSubscription: (subscriptionId, paymentId) => subscriptionSignature(subscriptionId, paymentId, secret),
    isSubscriptionSignatureValid: (subscriptionId, paymentId, signature) =>
      signatureMatches(subscriptionSignature(subscriptionId, paymentId, secret), signature),
    isWebhookSignatureValid: (rawBody, signature) =>
      signatureMatches(webhookSignature(rawBody, secret), signature),
  };
}
