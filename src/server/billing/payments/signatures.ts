import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../../platform/crypto.js';

/** Lower-case hex HMAC-SHA256, the form Razorpay sends its signatures in. */
export const hmacSha256Hex = (secret: string, message: string | Buffer): string =>
  createHmac('sha256', secret).update(message).digest('hex');

/** Razorpay's checkout signature: HMAC-SHA256(`order_id|payment_id`, key secret). */
export const paymentSignature = (orderId: string, paymentId: string, keySecret: string): string =>
  hmacSha256Hex(keySecret, `${orderId}|${paymentId}`);

/** Razorpay's subscription checkout signature: HMAC-SHA256(`payment_id|subscription_id`, key secret). */
export const subscriptionSignature = (subscriptionId: string, paymentId: string, keySecret: string): string =>
  hmacSha256Hex(keySecret, `${paymentId}|${subscriptionId}`);

/** Razorpay's webhook signature: HMAC-SHA256 of the raw request body with the webhook secret. */
export const webhookSignature = (rawBody: string | Buffer, webhookSecret: string): string =>
  hmacSha256Hex(webhookSecret, rawBody);

/** Constant-time comparison of the expected signature with the one presented (absent never matches). */
export const signatureMatches = (expected: string, presented: string | undefined): boolean =>
  presented !== undefined && constantTimeEqual(expected, presented);
