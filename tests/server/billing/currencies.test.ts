import { expect, it } from 'vitest';
import { dashboardStatsSchema } from '../../../src/shared/api/admin.js';
import { planSchema, publicPlanListSchema } from '../../../src/shared/api/plans.js';
import { subscriptionCheckoutSchema, subscriptionSchema } from '../../../src/shared/api/subscriptions.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import { expectValidationError } from '../helpers/admin-helpers.js';
import { indianDetails, invoiceOfPayment, putBillingDetails } from '../helpers/invoice-helpers.js';
import { createPlan, featureByKey, type Member, member } from '../helpers/license-helpers.js';
import { createOrder, expectVerified, payInSandbox, verifyPayment } from '../helpers/payment-helpers.js';
import { chargesOf, subscriptionCall, subscriptionRow } from '../helpers/subscription-helpers.js';

/*
 * Prices in several currencies (issue 34, item 7): a plan keeps its own price and is also sold for
 * prices an administrator sets in other currencies; a buyer pays in their billing country's
 * currency (or the one they choose among those offered), and every charge, invoice and MRR figure
 * stays in that currency. Nothing is ever converted.
 */

const germanBuyer = {
  name: 'Muster GmbH',
  address_line1: 'Unter den Linden 1',
  city: 'Berlin',
  postal_code: '10117',
  region: null,
  country: 'DE',
  tax_id: 'DE123456789',
};

const usBuyer = {
  name: 'Jane Doe',
  address_line1: '1 Market Street',
  city: 'San Francisco',
  postal_code: '94105',
  region: 'CA',
  country: 'US',
  tax_id: null,
};

async function buyerWith(s: TestServer, details: unknown): Promise<Member> {
  const buyer = await member(s);
  const saved = await putBillingDetails(s, buyer.token, details);
  expect(saved.statusCode, saved.body).toBe(200);
  return buyer;
}

const putPlan = (s: TestServer, admin: Member, id: string, body: unknown) =>
  s.api({ method: 'PUT', path: `/plans/${id}`, token: admin.token, body });

/** A monthly plan at ₹999 that an administrator also prices at €118 and $120 through the API. */
async function planInThreeCurrencies(s: TestServer, admin: Member, interval: 'month' | 'lifetime' = 'month') {
  const row = await createPlan(s, { price: 99_900, interval, features: { ai_chat: 100 } });
  const response = await putPlan(s, admin, row.id, {
    other_prices: [
      { currency: 'eur', price_minor: 11_800 },
      { currency: 'USD', price_minor: 12_000 },
    ],
  });
  expect(response.statusCode, response.body).toBe(200);
  return planSchema.parse(response.json());
}

describeOnEveryDatabase('prices in several currencies', (server) => {
  it('an administrator prices a plan in other currencies; every listing shows its own price first, then the others', async () => {
    const s = server();
    const admin = await member(s, 'admin');
    const plan = await planInThreeCurrencies(s, admin);
    const expected = [
      { currency: 'INR', price_minor: 99_900 },
      { currency: 'EUR', price_minor: 11_800 },
      { currency: 'USD', price_minor: 12_000 },
    ];
    expect(plan.prices).toEqual(expected);
    const listed = publicPlanListSchema.parse((await s.api({ path: '/plans/public' })).json());
    expect(listed.find((item) => item.id === plan.id)?.prices).toEqual(expected);
    // Sent again without them, the other prices are gone; the plan's own stays.
    const cleared = await putPlan(s, admin, plan.id, { other_prices: [] });
    expect(planSchema.parse(cleared.json()).prices).toEqual([expected[0]]);
  });

  it('bad prices are refused with a 400 and nothing is written', async () => {
    const s = server();
    const admin = await member(s, 'admin');
    const plan = await planInThreeCurrencies(s, admin);
    const refuse = async (body: unknown, code: string) => {
      const response = await putPlan(s, admin, plan.id, body);
      expectApiError(response, 400, code);
      return response.json<{ message: string }>().message;
    };
    // A currency payments are not taken in (PAYMENT_CURRENCIES: INR, USD, EUR by default).
    expect(
      await refuse({ other_prices: [{ currency: 'GBP', price_minor: 9_900 }] }, 'unsupported_currency'),
    ).toContain('GBP');
    // The plan's own currency again, a currency twice, a price of 0, a code that is none.
    expect(
      await refuse({ other_prices: [{ currency: 'INR', price_minor: 9_900 }] }, 'validation_error'),
    ).toContain('own currency');
    for (const other_prices of [
      [
        { currency: 'USD', price_minor: 1 },
        { currency: 'USD', price_minor: 2 },
      ],
      [{ currency: 'USD', price_minor: 0 }],
      [{ currency: 'dollars', price_minor: 100 }],
    ])
      expectValidationError(await putPlan(s, admin, plan.id, { other_prices }));
    // A free plan has none; a plan that bills overage is sold in its own currency only.
    const free = await createPlan(s, {});
    expectApiError(
      await putPlan(s, admin, free.id, { other_prices: [{ currency: 'USD', price_minor: 100 }] }),
      400,
      'validation_error',
    );
    const chat = await featureByKey(s, 'ai_chat');
    const overage = await putPlan(s, admin, plan.id, {
      features: [
        { feature_id: chat.id, limit: 100, overage: { policy: 'bill', price_minor: 100, per_units: 10 } },
      ],
    });
    expectApiError(overage, 400, 'overage_in_own_currency');
    const rows = await s.app.db
      .selectFrom('plan_prices')
      .select(['currency', 'price_minor'])
      .where('plan_id', '=', plan.id)
      .orderBy('currency')
      .execute();
    expect(rows.map((row) => [row.currency, Number(row.price_minor)])).toEqual([
      ['EUR', 11_800],
      ['USD', 12_000],
    ]);
  });

  it('a German business pays in euros: the order, the payment and the invoice are in EUR, the export net of GST', async () => {
    const s = server();
    const admin = await member(s, 'admin');
    const plan = await planInThreeCurrencies(s, admin, 'lifetime');
    const buyer = await buyerWith(s, germanBuyer);
    const opened = await createOrder(s, buyer.token, { plan_id: plan.id });
    expect(opened.statusCode, opened.body).toBe(201);
    const order = opened.json<{ amount: number; currency: string; order_id: string }>();
    // Prices include GST (the default); a sale abroad is charged the price less the GST in it.
    expect(order).toMatchObject({ currency: 'EUR', amount: 10_000 });
    const verified = expectVerified(
      await verifyPayment(s, buyer.token, await payInSandbox(s, buyer.token, order.order_id)),
    );
    expect(verified.payment).toMatchObject({ currency: 'EUR', amount: 10_000 });
    const invoice = await invoiceOfPayment(s, buyer.token, verified.payment.id);
    expect(invoice).toMatchObject({
      currency: 'EUR',
      total: 10_000,
      tax: 0,
      tax_treatment: 'eu_reverse_charge',
    });
  });

  it('a buyer may choose among the currencies offered; another is refused with 409 and nothing is written; without billing details the plan’s own', async () => {
    const s = server();
    const admin = await member(s, 'admin');
    const plan = await planInThreeCurrencies(s, admin, 'lifetime');
    const american = await buyerWith(s, usBuyer);
    const inDollars = await createOrder(s, american.token, { plan_id: plan.id });
    expect(inDollars.json()).toMatchObject({ currency: 'USD', amount: 10_169 });
    const chosen = await createOrder(s, american.token, { plan_id: plan.id, currency: 'eur' });
    expect(chosen.json()).toMatchObject({ currency: 'EUR', amount: 10_000 });
    const before = await s.app.db.selectFrom('payments').select('id').execute();
    const refused = expectApiError(
      await createOrder(s, american.token, { plan_id: plan.id, currency: 'JPY' }),
      409,
      'currency_not_offered',
    );
    expect(refused.message).toContain('INR or EUR or USD');
    expect(await s.app.db.selectFrom('payments').select('id').execute()).toEqual(before);
    const unknown = await member(s);
    expect((await createOrder(s, unknown.token, { plan_id: plan.id })).json()).toMatchObject({
      currency: 'INR',
      amount: 99_900,
    });
    const indian = await buyerWith(s, indianDetails({ tax_id: null, region: 'Karnataka', city: 'Mysuru' }));
    expect((await createOrder(s, indian.token, { plan_id: plan.id })).json()).toMatchObject({
      currency: 'INR',
    });
  });

  it('a fixed-amount coupon in rupees takes nothing off a euro price: it is refused for that order', async () => {
    const s = server();
    const admin = await member(s, 'admin');
    const plan = await planInThreeCurrencies(s, admin, 'lifetime');
    const code = `RUPEES${Math.floor(Math.random() * 1e9)}`;
    const created = await s.api({
      method: 'POST',
      path: '/admin/coupons',
      token: admin.token,
      body: { code, amount_off_minor: 5_000, currency: 'INR', duration: 'once' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const buyer = await buyerWith(s, germanBuyer);
    const response = await createOrder(s, buyer.token, { plan_id: plan.id, coupon_code: code });
    expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.json<{ message: string }>().message).toContain('EUR');
  });

  it('a subscription bought in euros is charged in euros for its life; a plan change stays in euros; the price cannot be taken away while it lives', async () => {
    const s = server();
    const admin = await member(s, 'admin');
    const plan = await planInThreeCurrencies(s, admin);
    const buyer = await buyerWith(s, germanBuyer);
    const opened = await s.api({
      method: 'POST',
      path: '/subscriptions',
      token: buyer.token,
      body: { plan_id: plan.id },
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const checkout = subscriptionCheckoutSchema.parse(opened.json());
    expect(checkout).toMatchObject({ currency: 'EUR', amount: 10_000 });
    expect(checkout.subscription.plan).toMatchObject({ price_minor: 11_800, currency: 'EUR' });
    const paid = await s.api({
      method: 'POST',
      path: `/payments/sandbox/subscriptions/${checkout.subscription_id}/complete`,
      token: buyer.token,
      body: { outcome: 'pay' },
    });
    const verified = await s.api({
      method: 'POST',
      path: '/subscriptions/verify',
      token: buyer.token,
      body: paid.json(),
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const id = checkout.subscription.id;
    expect((await subscriptionRow(s, id)).currency).toBe('EUR');
    const renewed = await subscriptionCall(s, buyer, 'POST', `/subscriptions/${id}/sandbox/renew`);
    expect(renewed.next_charge).toMatchObject({ currency: 'EUR', amount_minor: 10_000 });
    expect((await chargesOf(s, id)).map((charge) => [charge.currency, Number(charge.amount_minor)])).toEqual([
      ['EUR', 10_000],
      ['EUR', 10_000],
    ]);

    // Only a euro price can be removed or changed as long as euro subscriptions live: changed, yes.
    expectApiError(
      await putPlan(s, admin, plan.id, { other_prices: [{ currency: 'USD', price_minor: 12_000 }] }),
      409,
      'price_in_use',
    );
    const raised = await putPlan(s, admin, plan.id, {
      other_prices: [
        { currency: 'EUR', price_minor: 23_600 },
        { currency: 'USD', price_minor: 12_000 },
      ],
    });
    expect(raised.statusCode, raised.body).toBe(200);

    // A plan change is priced in euros; a plan not sold in euros cannot be moved to.
    const yearly = await createPlan(s, { price: 999_000, interval: 'year', features: { ai_chat: 100 } });
    const quoteOf = (planId: string) =>
      s.api({
        method: 'POST',
        path: `/subscriptions/${id}/plan/quote`,
        token: buyer.token,
        body: { plan_id: planId },
      });
    expectApiError(await quoteOf(yearly.id), 409, 'currency_not_offered');
    expect(
      (await putPlan(s, admin, yearly.id, { other_prices: [{ currency: 'EUR', price_minor: 118_000 }] }))
        .statusCode,
    ).toBe(200);
    const quote = await quoteOf(yearly.id);
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json()).toMatchObject({ currency: 'EUR', plan: { currency: 'EUR', price_minor: 118_000 } });
    expect(
      subscriptionSchema.parse((await s.api({ path: `/subscriptions/${id}`, token: buyer.token })).json())
        .plan,
    ).toMatchObject({
      currency: 'EUR',
      price_minor: 23_600,
    });
  });

  it('MRR is counted per currency, each subscription at the price it is charged', async () => {
    const s = server();
    const admin = await member(s, 'admin');
    const plan = await planInThreeCurrencies(s, admin);
    const mrr = async () =>
      dashboardStatsSchema.parse((await s.api({ path: '/admin/dashboard', token: admin.token })).json())
        .subscriptions.mrr;
    const before = await mrr();
    const german = await buyerWith(s, germanBuyer);
    const opened = await s.api({
      method: 'POST',
      path: '/subscriptions',
      token: german.token,
      body: { plan_id: plan.id },
    });
    const checkout = subscriptionCheckoutSchema.parse(opened.json());
    const paid = await s.api({
      method: 'POST',
      path: `/payments/sandbox/subscriptions/${checkout.subscription_id}/complete`,
      token: german.token,
      body: { outcome: 'pay' },
    });
    expect(
      (await s.api({ method: 'POST', path: '/subscriptions/verify', token: german.token, body: paid.json() }))
        .statusCode,
    ).toBe(200);
    const after = await mrr();
    const euros = (list: typeof after) => list.find((entry) => entry.currency === 'EUR')?.amount_minor ?? 0;
    const rupees = (list: typeof after) => list.find((entry) => entry.currency === 'INR')?.amount_minor ?? 0;
    expect(euros(after) - euros(before)).toBe(11_800);
    expect(rupees(after)).toBe(rupees(before));
  });
});
