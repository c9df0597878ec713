import Razorpay from 'razorpay';
import type { CreateOrderInput, PaymentProvider, ProviderOrder, RefundInput } from './provider.js';
import { PaymentProviderError } from './provider.js';
import { paymentSignature, signatureMatches, subscriptionSignature, webhookSignature } from './signatures.js';

/** How long an order request to Razorpay may take before the buyer is told to try again. */
const RAZORPAY_TIMEOUT_MS = 15_000;

export interface RazorpaySettings {
  keyId: string;
  keySecret: string;
  webhookSecret: string | undefined;
  /** Another base URL for the Razorpay API (a local fake in tests); https://api.razorpay.com by default. */
  apiUrl?: string;
}

/** The SDK keeps its axios instance on `api.rq`; only its defaults are touched (base URL, timeout). */
interface SdkHttpClient {
  rq?: { defaults: { baseURL?: string; timeout?: number } };
}

function createSdkClient({ keyId, keySecret, apiUrl }: RazorpaySettings): Razorpay {
  const client = new Razorpay({ key_id: keyId, key_secret: keySecret });
  const http = (client.api as unknown as SdkHttpClient).rq;
  if (!http) throw new Error('The razorpay SDK no longer exposes api.rq; update razorpay-provider.ts');
  http.defaults.timeout = RAZORPAY_TIMEOUT_MS;
  if (apiUrl) http.defaults.baseURL = apiUrl;
  return client;
}

/** What the SDK rejects with: `{ statusCode, error: { code, description } }`, or a network error. */
function describeSdkError(error: unknown): string {
  if (error && typeof error === 'object' && 'statusCode' in error) {
    const { statusCode, error: body } = error as {
      statusCode: unknown;
      error?: { code?: unknown; description?: unknown };
    };
    return `HTTP ${String(statusCode)} ${String(body?.code ?? '')}: ${String(body?.description ?? '')}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Real payments through the official `razorpay` SDK (orders API, checkout and webhook signatures). */
export function createRazorpayProvider(settings: RazorpaySettings): PaymentProvider {
  const client = createSdkClient(settings);
  const { keyId, keySecret, webhookSecret } = settings;
  return {
    name: 'razorpay',
    sandbox: false,
    keyId,
    acceptsWebhooks: webhookSecret !== undefined,
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
