import type { CreateOrderInput, PaymentProvider, ProviderOrder, RefundInput } from './provider.js';
import { PaymentProviderError } from './provider.js';
import { createSdkClient, describeSdkError, type RazorpaySettings } from './razorpay-sdk.js';
import { createRazorpaySubscriptions } from './razorpay-subscriptions.js';

export type { RazorpaySettings } from './razorpay-sdk.js';
import { paymentSignature, signatureMatches, subscriptionSignature, webhookSignature } from './signatures.js';

/** Real payments through the official `razorpay` SDK (orders API, checkout and webhook signatures). */
export function createRazorpayProvider(settings: RazorpaySettings): PaymentProvider {
  const client = createSdkClient(settings);
  const { keyId, keySecret, webhookSecret } = settings;
  return {
    name: 'razorpay',
    sandbox: false,
    keyId,
    acceptsWebhooks: webhookSecret !== undefined,
    subscriptions: createRazorpaySubscriptions(client),
    async createOrder({ amount, currency, receipt, notes }: CreateOrderInput): Promise<ProviderOrder> {
      let order: { id?: unknown; amount?: unknown; currency?: unknown };
      try {
        order = await client.orders.create({ amount, currency, receipt, notes });
      } catch (error) {
        throw new PaymentProviderError('Razorpay refused to create the order', describeSdkError(error));
      }
      // The order's amount is what the buyer is charged: it must be the plan's, exactly.
      if (typeof order.id !== 'string' || Number(order.amount) !== amount || order.currency !== currency) {
        throw new PaymentProviderError('Razorpay answered an unexpected order', order);
      }
      return { orderId: order.id, amount, currency };
    },
    /** `POST /v1/payments/:id/refund` (Razorpay's normal speed); the refund's id is kept on our record. */
    async refundPayment({ providerPaymentId, amount, notes }: RefundInput): Promise<{ refundId: string }> {
      let refund: { id?: unknown; amount?: unknown };
      try {
        refund = await client.payments.refund(providerPaymentId, { amount, notes });
      } catch (error) {
        throw new PaymentProviderError('Razorpay refused the refund', describeSdkError(error));
      }
      if (typeof refund.id !== 'string' || Number(refund.amount) !== amount) {
        throw new PaymentProviderError('Razorpay answered an unexpected refund', refund);
      }
      return { refundId: refund.id };
    },
    isPaymentSignatureValid: (orderId, paymentId, signature) =>
      signatureMatches(paymentSignature(orderId, paymentId, keySecret), signature),
    isSubscriptionSignatureValid: (subscriptionId, paymentId, signature) =>
      signatureMatches(subscriptionSignature(subscriptionId, paymentId, keySecret), signature),
    isWebhookSignatureValid: (rawBody, signature) =>
      webhookSecret !== undefined && signatureMatches(webhookSignature(rawBody, webhookSecret), signature),
  };
}
