import { describe, expect, it } from 'vitest';
import { licenseListSchema } from '../../../src/shared/api/licenses.js';
import {
  paymentConfigSchema,
  paymentListSchema,
  paymentSchema,
  paymentVerificationSchema,
} from '../../../src/shared/api/payments.js';
import { utc } from '../../../src/shared/dates.js';
import { SANDBOX_DECLINE_REASON } from '../../../src/server/billing/payments/service.js';
import { describeOnEveryDatabase } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import { expectValidationError } from '../helpers/admin-helpers.js';
import { createPlan, DAY_MS, giveLicense, member, planByCode } from '../helpers/license-helpers.js';
import {
  createOrder,
  declineInSandbox,
  expectVerified,
  licensesOf,
  listening,
  openOrder,
  payInSandbox,
  paymentRow,
  paymentTables,
  sandboxCheckout,
  socketClient,
  verifyPayment,
} from '../helpers/payment-helpers.js';

describeOnEveryDatabase('payments: the sandbox purchase', (server) => {
  it('GET /payments/config says sandbox, with its key id and currencies', async () => {
    const s = server();
    const buyer = await member(s);
    const response = await s.api({ path: '/payments/config', token: buyer.token });
    expect(response.statusCode, response.body).toBe(200);
    expect(paymentConfigSchema.parse(response.json())).toEqual({
      provider: 'sandbox',
      key_id: 'sandbox',
      sandbox: true,
      currency: 'INR',
      currencies: ['INR', 'USD', 'EUR'],
    });
    expectApiError(await s.api({ path: '/payments/config' }), 401, 'not_authenticated');
  });

  it('over a real socket: order → sandbox pay → verify → license of the plan in GET /licenses', async () => {
    const s = server();
    const buyer = await member(s);
    const send = socketClient(await listening(s), buyer.token);
    const pro = await planByCode(s, 'pro-monthly');

    const order = await send('POST', '/payments/razorpay/create-order', { plan_id: pro.id });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    expect(order.body).toMatchObject({
      amount: pro.price_minor,
      currency: 'INR',
      key_id: 'sandbox',
      provider: 'sandbox',
      sandbox: true,
      plan: { id: pro.id, name: pro.name },
      prefill: { email: buyer.email },
    });
    const orderId = order.body['order_id'] as string;
    expect(orderId).toMatch(/^order_sandbox_/);
    expect(await paymentRow(s, order.body['id'] as string)).toMatchObject({
      status: 'created',
      amount_minor: pro.price_minor,
      provider: 'sandbox',
      user_id: buyer.id,
      license_id: null,
    });

    const checkout = await send('POST', `/payments/sandbox/orders/${orderId}/complete`, { outcome: 'pay' });
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
    expect(Object.keys(checkout.body).sort()).toEqual([
      'razorpay_order_id',
      'razorpay_payment_id',
      'razorpay_signature',
    ]);
    expect(checkout.body['razorpay_payment_id']).toMatch(/^pay_sandbox_/);

    const before = Date.now();
    const verified = await send('POST', '/payments/razorpay/verify', checkout.body);
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    const { payment, license, sandbox } = paymentVerificationSchema.parse(verified.body);
    expect(sandbox).toBe(true);
    expect(payment).toMatchObject({
      id: order.body['id'],
      order_id: orderId,
      payment_id: checkout.body['razorpay_payment_id'],
      status: 'paid',
      sandbox: true,
      provider: 'sandbox',
      license_id: license.license_id,
    });
    expect(license).toMatchObject({
      plan_id: pro.id,
      status: 'active',
      max_activations: pro.max_activations,
    });
    const expiry = new Date(license.expires_at ?? '');
    const inAMonth = utc(before).add(1, 'month').valueOf();
    expect(Math.abs(expiry.getTime() - inAMonth)).toBeLessThan(DAY_MS);

    const listed = await send('GET', '/licenses');
    expect(listed.status).toBe(200);
    const licenses = licenseListSchema.parse(listed.body);
    expect(licenses.map((item) => item.license_id)).toEqual([license.license_id]);
    expect(licenses[0]).toMatchObject({
      plan_id: pro.id,
      expires_at: license.expires_at,
      max_activations: pro.max_activations,
      status: 'active',
    });

    const status = await send('GET', `/payments/status/${orderId}`);
    expect(paymentSchema.parse(status.body)).toEqual(payment);
    const byId = await send('GET', `/payments/status/${payment.id}`);
    expect(byId.body).toEqual(status.body);
  });

  it('decline marks the payment failed with a reason; paying again afterwards still works', async () => {
    const s = server();
    const buyer = await member(s);
    const plan = await createPlan(s, { price: 25_000, interval: 'year', seats: 2 });
    const order = await openOrder(s, buyer.token, plan.id);

    const failure = await declineInSandbox(s, buyer.token, order.order_id);
    expect(failure.error).toMatchObject({
      reason: 'payment_failed',
      description: SANDBOX_DECLINE_REASON,
      metadata: { order_id: order.order_id },
    });
    expect(failure.payment).toMatchObject({
      id: order.id,
      status: 'failed',
      failure_reason: SANDBOX_DECLINE_REASON,
      sandbox: true,
    });
    expect(await licensesOf(s, buyer.id)).toEqual([]);

    const retry = await payInSandbox(s, buyer.token, order.order_id);
    const { payment, license } = expectVerified(await verifyPayment(s, buyer.token, retry));
    expect(payment).toMatchObject({
      status: 'paid',
      failure_reason: null,
      payment_id: retry.razorpay_payment_id,
    });
    expect(license).toMatchObject({ plan_id: plan.id, max_activations: 2 });

    expectApiError(
      await sandboxCheckout(s, buyer.token, order.order_id, 'pay'),
      409,
      'payment_already_completed',
    );
  });

  it('a paid plan the buyer already holds is extended from its expiry, not issued twice', async () => {
    const s = server();
    const buyer = await member(s);
    const plan = await createPlan(s, { price: 50_000, interval: 'month', seats: 3 });
    const held = await giveLicense(s, buyer, plan);
    const expiry = new Date(held.expires_at ?? '');

    const order = await openOrder(s, buyer.token, plan.id);
    const paid = await payInSandbox(s, buyer.token, order.order_id);
    const { license, payment } = expectVerified(await verifyPayment(s, buyer.token, paid));

    expect(license.license_id).toBe(held.id);
    expect(license.license_key).toBe(held.license_key);
    expect(payment.license_id).toBe(held.id);
    expect(license.expires_at).toBe(utc(expiry).add(1, 'month').toISOString());
    expect(await licensesOf(s, buyer.id)).toHaveLength(1);
  });

  it('a license that already expired is not extended: the purchase issues a new one from now', async () => {
    const s = server();
    const buyer = await member(s);
    const plan = await createPlan(s, { price: 50_000, interval: 'month' });
    const old = await giveLicense(s, buyer, plan);
    await s.app.db
      .updateTable('licenses')
      .set({ expires_at: new Date(Date.now() - DAY_MS).toISOString() })
      .where('id', '=', old.id)
      .execute();

    const order = await openOrder(s, buyer.token, plan.id);
    const { license } = expectVerified(
      await verifyPayment(s, buyer.token, await payInSandbox(s, buyer.token, order.order_id)),
    );
    expect(license.license_id).not.toBe(old.id);
    expect(license.status).toBe('active');
    expect(await licensesOf(s, buyer.id)).toHaveLength(2);
  });

  it('GET /payments/history lists only the caller’s payments, newest first, paged and filtered', async () => {
    const s = server();
    const buyer = await member(s);
    const other = await member(s);
    const plan = await createPlan(s, { price: 10_000, interval: 'month' });
    const orders = [];
    for (let index = 0; index < 3; index++) {
      orders.push(await openOrder(s, buyer.token, plan.id));
      s.clock.advance(1000);
    }
    await openOrder(s, other.token, plan.id);
    await declineInSandbox(s, buyer.token, orders[0]?.order_id ?? '');

    const page = async (query: string) => {
      const response = await s.api({ path: `/payments/history?${query}`, token: buyer.token });
      expect(response.statusCode, response.body).toBe(200);
      return paymentListSchema.parse(response.json());
    };
    const all = await page('');
    expect(all).toMatchObject({ total: 3, page: 1, perPage: 10 });
    expect(all.data.map((item) => item.id)).toEqual(orders.map((order) => order.id).reverse());
    const second = await page('perPage=2&page=2');
    expect(second.total).toBe(3);
    expect(second.data.map((item) => item.id)).toEqual([orders[0]?.id]);
    const failed = await page('status=failed');
    expect(failed.total).toBe(1);
    expect(failed.data[0]?.status).toBe('failed');

    expectValidationError(await s.api({ path: '/payments/history?perPage=101', token: buyer.token }));
    expectValidationError(await s.api({ path: '/payments/history?sort=user_id', token: buyer.token }));
    expectValidationError(await s.api({ path: '/payments/history?status=refunded', token: buyer.token }));
  });

  describe('bad orders', () => {
    it('an amount sent by the client, or a currency that is no ISO code → 400 naming the field, nothing written', async () => {
      const s = server();
      const buyer = await member(s);
      const pro = await planByCode(s, 'pro-monthly');
      const before = await paymentTables(s);
      for (const extra of [{ amount: 100 }, { currency: 'dollars' }, { amount: 1, price_minor: 5 }]) {
        const message = expectValidationError(
          await createOrder(s, buyer.token, { plan_id: pro.id, ...extra }),
        );
        for (const field of Object.keys(extra)) expect(message).toContain(field);
      }
      expect(expectValidationError(await createOrder(s, buyer.token, {}))).toContain('plan_id');
      expect(await paymentTables(s)).toEqual(before);
    });

    it('free, unknown, archived, inactive and hidden plans are refused, nothing written', async () => {
      const s = server();
      const buyer = await member(s);
      const before = await paymentTables(s);
      const base = await planByCode(s, 'base');
      expect(
        expectApiError(await createOrder(s, buyer.token, { plan_id: base.id }), 409, 'plan_is_free').message,
      ).toContain('free');
      const free = await createPlan(s, { price: 0 });
      expectApiError(await createOrder(s, buyer.token, { plan_id: free.id }), 409, 'plan_is_free');
      expectApiError(await createOrder(s, buyer.token, { plan_id: 'no-such-plan' }), 404, 'plan_not_found');
      for (const change of [{ archived_at: new Date().toISOString() }, { is_active: 0 }, { is_public: 0 }]) {
        const plan = await createPlan(s, { price: 10_000, interval: 'month' });
        await s.app.db.updateTable('plans').set(change).where('id', '=', plan.id).execute();
        expectApiError(await createOrder(s, buyer.token, { plan_id: plan.id }), 404, 'plan_not_found');
      }
      // A plan left in a currency payments are no longer taken in (PAYMENT_CURRENCIES changed since).
      const pounds = await createPlan(s, { price: 10_000, interval: 'month' });
      await s.app.db.updateTable('plans').set({ currency: 'GBP' }).where('id', '=', pounds.id).execute();
      expectApiError(
        await createOrder(s, buyer.token, { plan_id: pounds.id }),
        409,
        'currency_not_supported',
      );
      expect((await paymentTables(s)).payments).toEqual(before.payments);
    });

    it('a plan may be named by its code; without a token → 401', async () => {
      const s = server();
      const buyer = await member(s);
      const order = await openOrder(s, buyer.token, 'pro-yearly');
      expect(order.plan.name).toBe('Pro (yearly)');
      expect(order.amount).toBe((await planByCode(s, 'pro-yearly')).price_minor);
      expectApiError(
        await s.api({
          method: 'POST',
          path: '/payments/razorpay/create-order',
          body: { plan_id: 'pro-yearly' },
        }),
        401,
        'not_authenticated',
      );
    });
  });

  describe('another user’s order', () => {
    it('sandbox checkout, status and verify of it → 404, nothing written', async () => {
      const s = server();
      const owner = await member(s);
      const intruder = await member(s);
      const order = await openOrder(s, owner.token, 'pro-monthly');
      const paid = await payInSandbox(s, owner.token, order.order_id);
      const before = await paymentTables(s);

      expectApiError(
        await sandboxCheckout(s, intruder.token, order.order_id, 'pay'),
        404,
        'payment_not_found',
      );
      expectApiError(
        await sandboxCheckout(s, intruder.token, order.order_id, 'decline'),
        404,
        'payment_not_found',
      );
      expectApiError(
        await s.api({ path: `/payments/status/${order.id}`, token: intruder.token }),
        404,
        'payment_not_found',
      );
      expectApiError(await verifyPayment(s, intruder.token, paid), 404, 'payment_not_found');
      expect(await paymentTables(s)).toEqual(before);
      const events = await s.app.db
        .selectFrom('security_events')
        .select('type')
        .where('user_id', '=', intruder.id)
        .where('type', 'like', 'payment%')
        .execute();
      expect(events).toEqual([]);
    });

    it('the sandbox checkout of an unknown order → 404; a bad outcome → 400', async () => {
      const s = server();
      const buyer = await member(s);
      expectApiError(
        await sandboxCheckout(s, buyer.token, 'order_sandbox_nope', 'pay'),
        404,
        'payment_not_found',
      );
      const order = await openOrder(s, buyer.token, 'pro-monthly');
      expectValidationError(
        await s.api({
          method: 'POST',
          path: `/payments/sandbox/orders/${order.order_id}/complete`,
          token: buyer.token,
          body: { outcome: 'refund' },
        }),
      );
      expect((await paymentRow(s, order.id)).status).toBe('created');
    });
  });
});
