import { createHmac, randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import {
  type CheckoutFailure,
  checkoutFailureSchema,
  checkoutSuccessSchema,
  type PaymentOrder,
  paymentOrderSchema,
  type PaymentVerification,
  paymentVerificationSchema,
  type VerifyPaymentRequest,
} from '../../../src/shared/api/payments.js';
import { loadOrCreateSecret } from '../../../src/server/platform/secrets.js';
import { type TestServer, WEB_API_KEY } from '../../support/test-server.js';

/** Shared set-up of the payments suites (tests/server/billing/payments-*.test.ts). */

/** The sandbox secret the server generated into its data directory (the file it reads too). */
export const sandboxSecretOf = (s: TestServer): string =>
  loadOrCreateSecret(s.config.dataDir, 'payment-sandbox-secret');

export const hmacHex = (secret: string, message: string): string =>
  createHmac('sha256', secret).update(message).digest('hex');

/** The same hex string with one character changed: a signature "altered by a byte". */
export function alterOneByte(signature: string, position = 10): string {
  const original = signature[position] as string;
  const replacement = original === 'a' ? 'b' : 'a';
  return `${signature.slice(0, position)}${replacement}${signature.slice(position + 1)}`;
}

export const createOrder = (s: TestServer, token: string, body: unknown) =>
  s.api({ method: 'POST', path: '/payments/razorpay/create-order', token, body });

/** Opens an order for a plan and returns it, checked against the shared schema. */
export async function openOrder(s: TestServer, token: string, planId: string): Promise<PaymentOrder> {
  const response = await createOrder(s, token, { plan_id: planId });
  expect(response.statusCode, response.body).toBe(201);
  return paymentOrderSchema.parse(response.json());
}

export const sandboxCheckout = (s: TestServer, token: string, orderId: string, outcome: 'pay' | 'decline') =>
  s.api({
    method: 'POST',
    path: `/payments/sandbox/orders/${encodeURIComponent(orderId)}/complete`,
    token,
    body: { outcome },
  });

/** Pays an order in the sandbox checkout and returns what the page would send to verify. */
export async function payInSandbox(
  s: TestServer,
  token: string,
  orderId: string,
): Promise<VerifyPaymentRequest> {
  const response = await sandboxCheckout(s, token, orderId, 'pay');
  expect(response.statusCode, response.body).toBe(200);
  return checkoutSuccessSchema.parse(response.json());
}

export async function declineInSandbox(
  s: TestServer,
  token: string,
  orderId: string,
): Promise<CheckoutFailure> {
  const response = await sandboxCheckout(s, token, orderId, 'decline');
  expect(response.statusCode, response.body).toBe(200);
  return checkoutFailureSchema.parse(response.json());
}

export const verifyPayment = (s: TestServer, token: string, body: unknown) =>
  s.api({ method: 'POST', path: '/payments/razorpay/verify', token, body });

export function expectVerified(response: LightMyRequestResponse): PaymentVerification {
  expect(response.statusCode, response.body).toBe(200);
  return paymentVerificationSchema.parse(response.json());
}

/** Sends a webhook as Razorpay does: raw JSON, signature header, event id header, no API key. */
export function postWebhook(
  s: TestServer,
  rawBody: string,
  headers: { signature?: string; eventId?: string; remoteAddress?: string } = {},
) {
  return s.api({
    method: 'POST',
    path: '/payments/razorpay/webhook',
    withoutApiKey: true,
    body: rawBody,
    ...(headers.remoteAddress === undefined ? {} : { remoteAddress: headers.remoteAddress }),
    headers: {
      'content-type': 'application/json',
      ...(headers.signature === undefined ? {} : { 'x-razorpay-signature': headers.signature }),
      ...(headers.eventId === undefined ? {} : { 'x-razorpay-event-id': headers.eventId }),
    },
  });
}

export const newEventId = () => `evt_${randomBytes(7).toString('hex')}`;

interface EventPayment {
  orderId: string;
  paymentId: string;
  amount: number;
  currency?: string;
}

const paymentEntity = ({ orderId, paymentId, amount, currency = 'INR' }: EventPayment, status: string) => ({
  id: paymentId,
  entity: 'payment',
  amount,
  currency,
  status,
  order_id: orderId,
  method: 'card',
  captured: status === 'captured',
});

/** Razorpay webhook bodies, shaped like the documented samples. */
export const webhookBodies = {
  paymentCaptured: (payment: EventPayment) =>
    JSON.stringify({
      entity: 'event',
      account_id: 'acc_test',
      event: 'payment.captured',
      contains: ['payment'],
      payload: { payment: { entity: paymentEntity(payment, 'captured') } },
      created_at: 1_700_000_000,
    }),
  orderPaid: (payment: EventPayment) =>
    JSON.stringify({
      entity: 'event',
      account_id: 'acc_test',
      event: 'order.paid',
      contains: ['payment', 'order'],
      payload: {
        payment: { entity: paymentEntity(payment, 'captured') },
        order: {
          entity: {
            id: payment.orderId,
            entity: 'order',
            amount: payment.amount,
            amount_paid: payment.amount,
            amount_due: 0,
            currency: payment.currency ?? 'INR',
            status: 'paid',
          },
        },
      },
      created_at: 1_700_000_000,
    }),
  paymentFailed: (payment: EventPayment) =>
    JSON.stringify({
      entity: 'event',
      account_id: 'acc_test',
      event: 'payment.failed',
      contains: ['payment'],
      payload: {
        payment: {
          entity: {
            ...paymentEntity(payment, 'failed'),
            error_code: 'BAD_REQUEST_ERROR',
            error_description: 'Payment was declined by the bank',
            error_reason: 'payment_failed',
          },
        },
      },
      created_at: 1_700_000_000,
    }),
};

/** Every row of the tables a payment request may write, to show that a refused one wrote nothing. */
export async function paymentTables(s: TestServer) {
  const [payments, webhookEvents, licenses] = await Promise.all([
    s.app.db.selectFrom('payments').selectAll().orderBy('id').execute(),
    s.app.db.selectFrom('payment_webhook_events').selectAll().orderBy('id').execute(),
    s.app.db.selectFrom('licenses').selectAll().orderBy('id').execute(),
  ]);
  return { payments, webhookEvents, licenses };
}

export const paymentRow = (s: TestServer, id: string) =>
  s.app.db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

export const licensesOf = (s: TestServer, userId: string) =>
  s.app.db.selectFrom('licenses').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();

/** Each suite's server listens once, on its own port. */
const addresses = new WeakMap<TestServer['app'], string>();
export async function listening(s: TestServer): Promise<string> {
  const known = addresses.get(s.app);
  if (known) return known;
  const address = await s.listen();
  addresses.set(s.app, address);
  return address;
}

/** JSON requests over the real socket, as the portal sends them (API key, bearer token). */
export function socketClient(base: string, token: string) {
  return async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: {
        'x-api-key': WEB_API_KEY,
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
}

/** Posts a raw webhook body over the real socket, without an API key, as Razorpay does. */
export async function postWebhookOverSocket(
  base: string,
  rawBody: string,
  headers: { signature: string; eventId: string },
) {
  const response = await fetch(`${base}/api/v1/payments/razorpay/webhook`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-razorpay-signature': headers.signature,
      'x-razorpay-event-id': headers.eventId,
    },
    body: rawBody,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
