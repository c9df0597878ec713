import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { paymentRefundsSchema } from '../../../src/shared/api/invoices.js';
import { paymentOrderSchema } from '../../../src/shared/api/payments.js';
import { usageBatchResponseSchema } from '../../../src/shared/api/usage.js';
import type { Config } from '../../../src/server/platform/config.js';
import { createRazorpayProvider } from '../../../src/server/billing/payments/razorpay-provider.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { signInAsAdmin } from '../helpers/admin-helpers.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import { createPlan, giveLicense, member } from '../helpers/license-helpers.js';
import { expectVerified, hmacHex, verifyPayment } from '../helpers/payment-helpers.js';

const KEY_ID = 'rzp_test_FakeKey000033';
const KEY_SECRET = 'fake-razorpay-key-secret-0033';

/**
 * A FAKE Razorpay API (its servers cannot be reached from tests): POST /v1/orders and
 * POST /v1/payments/:id/refund answered like the real one, a refund refused when told to.
 */
function fakeRazorpayApi() {
  const orders: Record<string, unknown>[] = [];
  const refunds: { url: string; body: Record<string, unknown> }[] = [];
  let refuse = false;
  const read = async (request: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
  };
  const server = createServer((request, response) => {
    void read(request).then((body) => {
      const send = (status: number, json: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(json));
      };
      if (request.method === 'POST' && request.url === '/v1/orders') {
        orders.push(body);
        return send(200, {
          id: `order_Fake${randomBytes(5).toString('hex')}`,
          entity: 'order',
          amount: body['amount'],
          currency: body['currency'],
          status: 'created',
        });
      }
      const match = /^\/v1\/payments\/([^/]+)\/refund$/.exec(request.url ?? '');
      if (request.method === 'POST' && match) {
        if (refuse) return send(400, { error: { code: 'BAD_REQUEST_ERROR', description: 'Refund refused' } });
        refunds.push({ url: request.url ?? '', body });
        return send(200, {
          id: `rfnd_Fake${randomBytes(5).toString('hex')}`,
          entity: 'refund',
          amount: body['amount'],
          currency: 'INR',
          payment_id: match[1],
          status: 'processed',
        });
      }
      return send(404, { error: { code: 'BAD_REQUEST_ERROR', description: 'Not found' } });
    });
  });
  return {
    orders,
    refunds,
    refuseNext: (value: boolean) => {
      refuse = value;
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

const fake = fakeRazorpayApi();
let fakeUrl: string | undefined;
beforeAll(async () => {
  fakeUrl = await fake.start();
});
afterAll(async () => fake.stop());

/** The middle of the current UTC month, so a test's events stay in one month whatever today is. */
function midMonth(s: TestServer) {
  const now = s.clock.now();
  s.clock.advance(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 15, 12) - now.getTime());
}

describeOnEveryDatabase(
  'credit packs through Razorpay (a fake Razorpay API at the HTTP layer)',
  (server) => {
    it('orders the packs’ price, settles the verified payment into a pack, and refunds its unused share once Razorpay takes it', async () => {
      const s = server();
      midMonth(s);
      const plan = await createPlan(s, {
        features: { ai_chat: 10 },
        packs: { ai_chat: { units: 100, price_minor: 2_000 } },
      });
      const owner = await member(s);
      const license = await giveLicense(s, owner, plan);

      const opened = await s.api({
        method: 'POST',
        path: `/licenses/${license.id}/usage/packs`,
        token: owner.token,
        body: { feature: 'ai_chat', quantity: 3 },
      });
      expect(opened.statusCode, opened.body).toBe(201);
      const order = paymentOrderSchema.parse(opened.json());
      expect(order).toMatchObject({ provider: 'razorpay', sandbox: false, amount: 6_000 });
      expect(fake.orders.at(-1)).toMatchObject({ amount: 6_000, currency: 'INR' });

      const paymentId = `pay_Fake${randomBytes(6).toString('hex')}`;
      const checkout = {
        razorpay_order_id: order.order_id,
        razorpay_payment_id: paymentId,
        razorpay_signature: hmacHex(KEY_SECRET, `${order.order_id}|${paymentId}`),
      };
      expectVerified(await verifyPayment(s, owner.token, checkout));
      expectVerified(await verifyPayment(s, owner.token, checkout));
      const packs = await s.app.db
        .selectFrom('usage_packs')
        .selectAll()
        .where('license_id', '=', license.id)
        .execute();
      expect(packs.map((pack) => [pack.units, pack.source, pack.payment_id])).toEqual([
        [300, 'purchase', order.id],
      ]);

      // The allowance, then 30 of the pack's 300 units.
      const used = await s.api({
        method: 'POST',
        path: `/licenses/${license.id}/usage/events`,
        token: owner.token,
        body: { events: [{ id: 'big', feature: 'ai_chat', amount: 40 }] },
      });
      expect(usageBatchResponseSchema.parse(used.json()).counted).toBe(1);

      const admin = await signInAsAdmin(s);
      const refundPath = `/payments/admin/payments/${order.id}/refunds`;
      fake.refuseNext(true);
      expectApiError(
        await s.api({
          method: 'POST',
          path: refundPath,
          token: admin.token,
          body: { license_action: 'keep' },
        }),
        502,
        'payment_provider_unavailable',
      );
      // Nothing was refunded: the pack is drawn from again.
      const [reopened] = await s.app.db
        .selectFrom('usage_packs')
        .select('ended_at')
        .where('license_id', '=', license.id)
        .execute();
      expect(reopened?.ended_at).toBeNull();

      fake.refuseNext(false);
      const refunded = await s.api({
        method: 'POST',
        path: refundPath,
        token: admin.token,
        body: { license_action: 'keep' },
      });
      expect(refunded.statusCode, refunded.body).toBe(201);
      // 270 of 300 units unused: floor(6000 × 270 / 300) = 5400.
      expect(paymentRefundsSchema.parse(refunded.json())).toMatchObject({ refunded: 5_400 });
      expect(fake.refunds.at(-1)).toMatchObject({
        url: `/v1/payments/${paymentId}/refund`,
        body: { amount: 5_400 },
      });
    });
  },
  {
    env: { RAZORPAY_KEY_ID: KEY_ID, RAZORPAY_KEY_SECRET: KEY_SECRET },
    appOverrides: (config: Config) => {
      const settings = config.payments.razorpay;
      if (!settings || !fakeUrl) throw new Error('the Razorpay keys or the fake API are missing');
      return { paymentProvider: createRazorpayProvider({ ...settings, apiUrl: fakeUrl }) };
    },
  },
);
