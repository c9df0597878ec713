import { describe, expect, it } from 'vitest';
import {
  adminPaymentListSchema,
  paymentListSchema,
  paymentSchema,
} from '../../../src/shared/api/payments.js';
import { loadConfig } from '../../../src/server/platform/config.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import { member } from '../helpers/license-helpers.js';
import {
  declineInSandbox,
  expectVerified,
  hmacHex,
  licensesOf,
  newEventId,
  openOrder,
  payInSandbox,
  paymentRow,
  postWebhook,
  sandboxSecretOf,
  verifyPayment,
  webhookBodies,
} from '../helpers/payment-helpers.js';

/** The suite's expiry: short enough to reach with the test clock, long enough to tell the boundary. */
const EXPIRY_MINUTES = 5;
const EXPIRY_MS = EXPIRY_MINUTES * 60_000;

const status = async (s: TestServer, token: string, id: string) => {
  const response = await s.api({ path: `/payments/status/${id}`, token });
  expect(response.statusCode, response.body).toBe(200);
  return paymentSchema.parse(response.json());
};

const history = async (s: TestServer, token: string, query = '') => {
  const response = await s.api({ path: `/payments/history${query}`, token });
  expect(response.statusCode, response.body).toBe(200);
  return paymentListSchema.parse(response.json());
};

const dismiss = (s: TestServer, token: string, id: string) =>
  s.api({ method: 'POST', path: `/payments/history/${id}/dismiss`, token });

describe('CHECKOUT_EXPIRY_MINUTES', () => {
  it('defaults to 60 and refuses values outside 1 minute to a week', () => {
    expect(loadConfig({}).payments.checkoutExpiryMinutes).toBe(60);
    expect(loadConfig({ CHECKOUT_EXPIRY_MINUTES: '5' }).payments.checkoutExpiryMinutes).toBe(5);
    for (const bad of ['0', '10081', 'soon', '1.5'])
      expect(() => loadConfig({ CHECKOUT_EXPIRY_MINUTES: bad }), bad).toThrow(/CHECKOUT_EXPIRY_MINUTES/);
  });
});

describeOnEveryDatabase(
  'payments: abandoned checkouts expire',
  (server) => {
    it('an unpaid order is created until the expiry, expired from that moment, in status, history and the admin list', async () => {
      const s = server();
      const buyer = await member(s);
      const admin = await member(s, 'admin');
      s.clock.freeze();
      const order = await openOrder(s, buyer.token, 'pro-monthly');

      s.clock.advance(EXPIRY_MS - 1);
      expect((await status(s, buyer.token, order.id)).status).toBe('created');
      expect((await history(s, buyer.token, '?status=created')).data.map((p) => p.id)).toContain(order.id);
      expect((await history(s, buyer.token, '?status=expired')).data.map((p) => p.id)).not.toContain(
        order.id,
      );

      s.clock.advance(1);
      const expired = await status(s, buyer.token, order.id);
      expect(expired).toMatchObject({
        status: 'expired',
        kind: 'purchase',
        paid_at: null,
        dismissed_at: null,
      });
      expect((await history(s, buyer.token, '?status=expired')).data.map((p) => p.id)).toEqual([order.id]);
      expect((await history(s, buyer.token, '?status=created')).data).toEqual([]);
      // Nothing was written: the row still says created, and every instance reads it alike.
      expect((await paymentRow(s, order.id)).status).toBe('created');

      const list = await s.api({
        path: `/payments/admin/payments?status=expired&userId=${buyer.id}`,
        token: admin.token,
      });
      expect(list.statusCode, list.body).toBe(200);
      expect(adminPaymentListSchema.parse(list.json()).data.map((p) => [p.id, p.status])).toEqual([
        [order.id, 'expired'],
      ]);
    });

    it('a payment verified after the expiry is honoured: paid, licensed, and out of the expired list', async () => {
      const s = server();
      const buyer = await member(s);
      const order = await openOrder(s, buyer.token, 'pro-monthly');
      const checkout = await payInSandbox(s, buyer.token, order.order_id);
      s.clock.advance(EXPIRY_MS + 60_000);
      expect((await status(s, buyer.token, order.id)).status).toBe('expired');

      const verified = expectVerified(await verifyPayment(s, buyer.token, checkout));
      expect(verified.payment).toMatchObject({ id: order.id, status: 'paid' });
      expect(verified.license.plan.code).toBe('pro-monthly');
      expect((await status(s, buyer.token, order.id)).status).toBe('paid');
      expect((await licensesOf(s, buyer.id)).map((license) => license.id)).toContain(
        verified.payment.license_id,
      );
      expect((await history(s, buyer.token, '?status=expired')).data).toEqual([]);
    });

    it("a provider's late payment.captured for a dismissed expired order pays it and brings it back to the history", async () => {
      const s = server();
      const buyer = await member(s);
      const order = await openOrder(s, buyer.token, 'pro-monthly');
      s.clock.advance(EXPIRY_MS);
      const dismissed = await dismiss(s, buyer.token, order.id);
      expect(dismissed.statusCode, dismissed.body).toBe(200);
      expect(paymentSchema.parse(dismissed.json()).dismissed_at).not.toBeNull();
      expect((await history(s, buyer.token)).data.map((p) => p.id)).not.toContain(order.id);

      const body = webhookBodies.paymentCaptured({
        orderId: order.order_id,
        paymentId: `pay_late${Date.now()}`,
        amount: order.amount,
      });
      const answer = await postWebhook(s, body, {
        signature: hmacHex(sandboxSecretOf(s), body),
        eventId: newEventId(),
      });
      expect(answer.json()).toEqual({ status: 'processed' });

      const row = await paymentRow(s, order.id);
      expect(row).toMatchObject({ status: 'paid', dismissed_at: null });
      expect(row.license_id).not.toBeNull();
      const shown = (await history(s, buyer.token)).data.find((p) => p.id === order.id);
      expect(shown).toMatchObject({ status: 'paid', license_id: row.license_id });
      const invoice = await s.app.db
        .selectFrom('invoices')
        .select('id')
        .where('payment_id', '=', order.id)
        .executeTakeFirst();
      expect(invoice).toBeDefined();
    });

    it('the owner dismisses an expired or a failed order: hidden by default, listed with dismissed=include; again is the same', async () => {
      const s = server();
      const buyer = await member(s);
      const abandoned = await openOrder(s, buyer.token, 'pro-monthly');
      const declined = await openOrder(s, buyer.token, 'pro-monthly');
      await declineInSandbox(s, buyer.token, declined.order_id);

      // A failed order needs no waiting.
      const first = await dismiss(s, buyer.token, declined.id);
      expect(first.statusCode, first.body).toBe(200);
      const dismissedFailed = paymentSchema.parse(first.json());
      expect(dismissedFailed).toMatchObject({ id: declined.id, status: 'failed' });
      const again = await dismiss(s, buyer.token, declined.id);
      expect(again.statusCode, again.body).toBe(200);
      expect(paymentSchema.parse(again.json()).dismissed_at).toBe(dismissedFailed.dismissed_at);

      // The abandoned checkout is still open until it expires.
      expectApiError(await dismiss(s, buyer.token, abandoned.id), 409, 'payment_in_progress');
      s.clock.advance(EXPIRY_MS);
      expect((await dismiss(s, buyer.token, abandoned.order_id)).statusCode).toBe(200);

      const shown = await history(s, buyer.token);
      expect(shown.data.map((p) => p.id)).not.toContain(abandoned.id);
      expect(shown.data.map((p) => p.id)).not.toContain(declined.id);
      const everything = await history(s, buyer.token, '?dismissed=include');
      expect(everything.data.map((p) => p.id).sort()).toEqual([abandoned.id, declined.id].sort());
      expect(everything.total).toBe(2);
      expectApiError(
        await s.api({ path: '/payments/history?dismissed=maybe', token: buyer.token }),
        400,
        'validation_error',
      );
    });

    it("dismissing someone else's order is 404, a paid order 409, and nothing changes", async () => {
      const s = server();
      const buyer = await member(s);
      const stranger = await member(s);
      const abandoned = await openOrder(s, buyer.token, 'pro-monthly');
      s.clock.advance(EXPIRY_MS);
      expectApiError(await dismiss(s, stranger.token, abandoned.id), 404, 'payment_not_found');
      expectApiError(await dismiss(s, stranger.token, abandoned.order_id), 404, 'payment_not_found');
      expect((await paymentRow(s, abandoned.id)).dismissed_at).toBeNull();

      const paid = await openOrder(s, buyer.token, 'pro-monthly');
      expectVerified(await verifyPayment(s, buyer.token, await payInSandbox(s, buyer.token, paid.order_id)));
      const refused = expectApiError(
        await dismiss(s, buyer.token, paid.id),
        409,
        'payment_already_completed',
      );
      expect(refused.message).toMatch(/paid/);
      expect((await paymentRow(s, paid.id)).dismissed_at).toBeNull();
      expectApiError(
        await s.api({ method: 'POST', path: '/payments/history/x/dismiss' }),
        401,
        'not_authenticated',
      );
    });

    it("a subscription's unpaid charge never expires and cannot be dismissed", async () => {
      const s = server();
      const buyer = await member(s);
      const opened = await s.api({
        method: 'POST',
        path: '/subscriptions',
        token: buyer.token,
        body: { plan_id: 'pro-monthly' },
      });
      expect(opened.statusCode, opened.body).toBe(201);
      s.clock.advance(EXPIRY_MS * 2);
      const charges = await s.app.db
        .selectFrom('payments')
        .selectAll()
        .where('user_id', '=', buyer.id)
        .where('kind', '=', 'subscription')
        .execute();
      const shown = await history(s, buyer.token);
      for (const charge of charges) {
        expect(shown.data.find((p) => p.id === charge.id)?.status).toBe(charge.status);
        expectApiError(
          await dismiss(s, buyer.token, charge.id),
          409,
          charge.status === 'paid' ? 'payment_already_completed' : 'payment_not_dismissable',
        );
      }
      expect((await history(s, buyer.token, '?status=expired')).data).toEqual([]);
    });
  },
  { env: { CHECKOUT_EXPIRY_MINUTES: String(EXPIRY_MINUTES) } },
);
