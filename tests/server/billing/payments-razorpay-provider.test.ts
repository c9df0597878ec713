import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { validatePaymentVerification, validateWebhookSignature } from 'razorpay/dist/utils/razorpay-utils.js';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { Config } from '../../../src/server/platform/config.js';
import { createRazorpayProvider } from '../../../src/server/billing/payments/razorpay-provider.js';
import {
  describeOnEveryDatabase,
  type TestServer,
  type TestServerOptions,
} from '../../support/test-server.js';
import { signInAsUser } from '../helpers/admin-helpers.js';
import { expectApiError, securityEvents } from '../helpers/auth-helpers.js';
import {
  alterOneByte,
  createOrder,
  expectVerified,
  hmacHex,
  newEventId,
  openOrder,
  postWebhook,
  sandboxCheckout,
  verifyPayment,
  webhookBodies,
} from '../helpers/payment-helpers.js';

const KEY_ID = 'rzp_test_FakeKey000001';
const KEY_SECRET = 'fake-razorpay-key-secret-0001';
const WEBHOOK_SECRET = 'fake-razorpay-webhook-secret-0001';

type FakeAnswer = 'order' | 'wrong-amount' | 'unauthorized' | 'server-error' | 'hang-up';

/**
 * A FAKE Razorpay API (Razorpay's servers cannot be reached from tests): answers POST /v1/orders
 * like the real one and records what the SDK sent.
 */
function fakeRazorpayApi() {
  const requests: { method: string; url: string; authorization: string | undefined; body: unknown }[] = [];
  let answer: FakeAnswer = 'order';
  const readBody = async (request: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };
  const server: Server = createServer((request, response) => {
    void readBody(request).then((raw) => {
      const body = raw
        ? (JSON.parse(raw) as { amount: number; currency: string; receipt: string })
        : undefined;
      requests.push({
        method: request.method ?? '',
        url: request.url ?? '',
        authorization: request.headers.authorization,
        body,
      });
      const send = (status: number, json: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(json));
      };
      if (answer === 'hang-up') return response.socket?.destroy();
      if (answer === 'unauthorized')
        return send(401, { error: { code: 'BAD_REQUEST_ERROR', description: 'Authentication failed' } });
      if (answer === 'server-error')
        return send(500, { error: { code: 'SERVER_ERROR', description: 'We are facing some trouble' } });
      if (request.method !== 'POST' || request.url !== '/v1/orders' || !body)
        return send(404, {
          error: { code: 'BAD_REQUEST_ERROR', description: 'The requested URL was not found' },
        });
      return send(200, {
        id: `order_Fake${randomBytes(5).toString('hex')}`,
        entity: 'order',
        amount: answer === 'wrong-amount' ? body.amount - 1 : body.amount,
        amount_paid: 0,
        amount_due: body.amount,
        currency: body.currency,
        receipt: body.receipt,
        status: 'created',
        attempts: 0,
        notes: (body as { notes?: unknown }).notes ?? [],
        created_at: Math.floor(Date.now() / 1000),
      });
    });
  });
  return {
    requests,
    answerWith: (next: FakeAnswer) => {
      answer = next;
    },
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () =>
          resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
        ),
      ),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// One fake for the whole file, started before any suite's server so its URL is known when
// the server is built (file-level hooks run before, and after, the suites' own).
const fake = fakeRazorpayApi();
let fakeUrl: string | undefined;
beforeAll(async () => {
  fakeUrl = await fake.start();
});
afterAll(async () => fake.stop());

/** A server configured for Razorpay (by its keys) whose SDK talks to the fake API. */
function razorpayServer(options: { webhookSecret?: string } = {}): TestServerOptions {
  return {
    env: {
      RAZORPAY_KEY_ID: KEY_ID,
      RAZORPAY_KEY_SECRET: KEY_SECRET,
      ...(options.webhookSecret ? { RAZORPAY_WEBHOOK_SECRET: options.webhookSecret } : {}),
    },
    appOverrides: (config: Config) => {
      expect(config.payments.provider).toBe('razorpay');
      const settings = config.payments.razorpay;
      if (!settings) throw new Error('the Razorpay keys were not read');
      if (!fakeUrl) throw new Error('the fake Razorpay API is not started yet');
      return { paymentProvider: createRazorpayProvider({ ...settings, apiUrl: fakeUrl }) };
    },
  };
}

const plan = (s: TestServer, code: string) =>
  s.app.db.selectFrom('plans').selectAll().where('code', '=', code).executeTakeFirstOrThrow();
const payments = (s: TestServer) => s.app.db.selectFrom('payments').selectAll().orderBy('id').execute();

describeOnEveryDatabase(
  'payments with Razorpay against a fake Razorpay API',
  (server) => {
    beforeEach(() => fake.answerWith('order'));

    it('the config chose Razorpay from its keys, with the webhook secret', () => {
      const { config } = server();
      expect(config.payments.provider).toBe('razorpay');
      expect(config.payments.razorpay).toEqual({
        keyId: KEY_ID,
        keySecret: KEY_SECRET,
        webhookSecret: WEBHOOK_SECRET,
      });
    });

    it('GET /payments/config names Razorpay, its key id, and no sandbox', async () => {
      const buyer = await signInAsUser(server(), 'buyer');
      const response = await server().api({ path: '/payments/config', token: buyer.token });
      expect(response.json()).toEqual({
        provider: 'razorpay',
        key_id: KEY_ID,
        sandbox: false,
        currency: 'INR',
        currencies: ['INR', 'USD', 'EUR'],
      });
    });

    it('create-order goes through the SDK to the fake Razorpay API with the plan’s amount and the key', async () => {
      const buyer = await signInAsUser(server(), 'buyer');
      const pro = await plan(server(), 'pro-monthly');
      const order = await openOrder(server(), buyer.token, pro.id);
      expect(order).toMatchObject({
        amount: pro.price_minor,
        currency: 'INR',
        key_id: KEY_ID,
        provider: 'razorpay',
        sandbox: false,
      });
      const sent = fake.requests.at(-1);
      expect(sent).toMatchObject({
        method: 'POST',
        url: '/v1/orders',
        authorization: `Basic ${Buffer.from(`${KEY_ID}:${KEY_SECRET}`).toString('base64')}`,
        body: {
          amount: pro.price_minor,
          currency: 'INR',
          receipt: order.id,
          notes: { payment_id: order.id, plan_id: pro.id, user_id: buyer.id },
        },
      });
      const rows = await payments(server());
      expect(rows.find((row) => row.id === order.id)).toMatchObject({
        provider: 'razorpay',
        provider_order_id: order.order_id,
        amount_minor: pro.price_minor,
        status: 'created',
      });
    });

    it.each<FakeAnswer>(['unauthorized', 'server-error', 'hang-up', 'wrong-amount'])(
      'the fake Razorpay API answering %s → 502, nothing written',
      async (answer) => {
        const buyer = await signInAsUser(server(), 'buyer');
        const before = await payments(server());
        fake.answerWith(answer);
        const response = await createOrder(server(), buyer.token, { plan_id: 'pro-monthly' });
        expectApiError(response, 502, 'payment_provider_unavailable');
        expect(response.body).not.toContain('Authentication failed');
        expect(await payments(server())).toEqual(before);
      },
    );

    it('verify accepts a checkout signature that validates with Razorpay’s utility, and refuses it altered', async () => {
      const buyer = await signInAsUser(server(), 'buyer');
      const order = await openOrder(server(), buyer.token, 'pro-yearly');
      const paymentId = `pay_${randomBytes(7).toString('hex')}`;
      const signature = hmacHex(KEY_SECRET, `${order.order_id}|${paymentId}`);
      const params = { order_id: order.order_id, payment_id: paymentId };
      expect(validatePaymentVerification(params, signature, KEY_SECRET)).toBe(true);
      const body = {
        razorpay_order_id: order.order_id,
        razorpay_payment_id: paymentId,
        razorpay_signature: signature,
      };

      const altered = alterOneByte(signature);
      expect(validatePaymentVerification(params, altered, KEY_SECRET)).toBe(false);
      const refused = await verifyPayment(server(), buyer.token, { ...body, razorpay_signature: altered });
      expectApiError(refused, 400, 'invalid_signature');
      expect(
        await securityEvents(server(), { type: 'payment_verification_failed', userId: buyer.id }),
      ).toHaveLength(1);

      const { payment, license, sandbox } = expectVerified(await verifyPayment(server(), buyer.token, body));
      expect(sandbox).toBe(false);
      expect(payment).toMatchObject({
        provider: 'razorpay',
        sandbox: false,
        status: 'paid',
        payment_id: paymentId,
      });
      expect(license.plan.code).toBe('pro-yearly');
    });

    it('webhooks are checked with RAZORPAY_WEBHOOK_SECRET (as validateWebhookSignature does), not the key secret', async () => {
      const buyer = await signInAsUser(server(), 'buyer');
      const order = await openOrder(server(), buyer.token, 'pro-monthly');
      const body = webhookBodies.paymentCaptured({
        orderId: order.order_id,
        paymentId: `pay_${randomBytes(7).toString('hex')}`,
        amount: order.amount,
      });
      const post = (signature: string) => postWebhook(server(), body, { signature, eventId: newEventId() });
      const withKeySecret = hmacHex(KEY_SECRET, body);
      expect(validateWebhookSignature(body, withKeySecret, WEBHOOK_SECRET)).toBe(false);
      expectApiError(await post(withKeySecret), 400, 'invalid_signature');

      const signature = hmacHex(WEBHOOK_SECRET, body);
      expect(validateWebhookSignature(body, signature, WEBHOOK_SECRET)).toBe(true);
      const accepted = await post(signature);
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(accepted.json()).toEqual({ status: 'processed' });
      const row = (await payments(server())).find((item) => item.id === order.id);
      expect(row).toMatchObject({ status: 'paid', provider: 'razorpay' });
    });

    it('the sandbox checkout does not exist on a server taking real payments (404)', async () => {
      const buyer = await signInAsUser(server(), 'buyer');
      const order = await openOrder(server(), buyer.token, 'pro-monthly');
      const before = await payments(server());
      expectApiError(
        await sandboxCheckout(server(), buyer.token, order.order_id, 'pay'),
        404,
        'sandbox_disabled',
      );
      expect(await payments(server())).toEqual(before);
    });
  },
  razorpayServer({ webhookSecret: WEBHOOK_SECRET }),
);

describeOnEveryDatabase(
  'Razorpay without RAZORPAY_WEBHOOK_SECRET (fake Razorpay API)',
  (server) => {
    it('the config chose Razorpay from its keys, with no webhook secret', () => {
      const { config } = server();
      expect(config.payments.provider).toBe('razorpay');
      expect(config.payments.razorpay?.webhookSecret).toBeUndefined();
    });

    it('refuses every webhook with 400 and a security event, since none can be trusted', async () => {
      const body = webhookBodies.paymentCaptured({ orderId: 'order_Any', paymentId: 'pay_Any', amount: 100 });
      const response = await postWebhook(server(), body, { signature: hmacHex(KEY_SECRET, body) });
      expectApiError(response, 400, 'invalid_signature');
      const events = await securityEvents(server(), { type: 'webhook_signature_failed' });
      expect(JSON.parse(events.at(-1)?.details ?? '{}')).toMatchObject({
        reason: 'no webhook secret is configured on this server',
      });
    });
  },
  razorpayServer(),
);
