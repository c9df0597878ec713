import { expect, it } from 'vitest';
import { seatPurchaseSchema } from '../../../src/shared/api/organisations.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { type Member, member, planByCode } from '../helpers/license-helpers.js';
import {
  buyForOrganisation,
  buySeats,
  organisationWithRoles,
} from '../helpers/organisation-purchase-helpers.js';
import { expectVerified, openOrder, payInSandbox, verifyPayment } from '../helpers/payment-helpers.js';
import { createPlan } from '../helpers/license-helpers.js';
import { chargesOf, DAY, later, subscribe } from '../helpers/subscription-helpers.js';

async function coupon(s: TestServer, body: Record<string, unknown>): Promise<string> {
  const admin = await member(s, 'admin');
  const code = `SAVE${Math.floor(Math.random() * 1e9)}`;
  const created = await s.api({
    method: 'POST',
    path: '/admin/coupons',
    token: admin.token,
    body: { code, currency: 'INR', ...body },
  });
  expect(created.statusCode, created.body).toBe(201);
  return code;
}

const invoiceOf = (s: TestServer, paymentId: string) =>
  s.app.db
    .selectFrom('invoices')
    .selectAll()
    .where('payment_id', '=', paymentId)
    .where('kind', '=', 'invoice')
    .executeTakeFirstOrThrow();

const taxTotal = (taxes: Array<{ amount: number }>) => taxes.reduce((sum, tax) => sum + tax.amount, 0);

describeOnEveryDatabase('charge summaries: prices include the tax', (server) => {
  it('a subscription with a 20 % coupon says ₹799.20 charged today, its tax, and the next charge at the full price', async () => {
    const s = server();
    const buyer = await member(s);
    const code = await coupon(s, { percent_off: 20, duration: 'once' });
    const activation = await subscribe(s, buyer, 'pro-monthly', { couponCode: code });
    const charge = activation.charge;
    expect(charge).toMatchObject({
      currency: 'INR',
      quantity: 1,
      list_price_minor: 99_900,
      unit_price_minor: 79_920,
      discount: { coupon_code: code, amount_minor: 19_980 },
      credit_minor: 0,
      lines_include_tax: true,
      charged_today_minor: 79_920,
    });
    // 18 % included in ₹799.20: ₹677.29 before tax, ₹121.91 of tax.
    expect(taxTotal(charge!.taxes)).toBe(12_191);
    const [paid] = await chargesOf(s, activation.subscription.id);
    const invoice = await invoiceOf(s, paid!.id);
    expect(charge!.charged_today_minor).toBe(Number(paid!.amount_minor));
    expect(charge!.invoice_number).toBe(invoice.number);
    expect(taxTotal(charge!.taxes)).toBe(Number(invoice.tax_minor));
    // The coupon was for the first charge only.
    expect(charge!.next_charge).toEqual({
      amount_minor: 99_900,
      at: activation.subscription.next_charge!.at,
    });
  });

  it('an organization’s 3 seats with ₹150 off each: 3 × ₹1,349, ₹4,047 today and next', async () => {
    const s = server();
    const org = await organisationWithRoles(s);
    const code = await coupon(s, { amount_off_minor: 15_000, duration: 'forever' });
    const { charge, license, subscription } = await buyForOrganisation(s, org.owner, org.id, 3, {
      couponCode: code,
    });
    expect(charge).toMatchObject({
      quantity: 3,
      list_price_minor: 149_900,
      unit_price_minor: 134_900,
      discount: { coupon_code: code, amount_minor: 45_000 },
      charged_today_minor: 404_700,
      next_charge: { amount_minor: 404_700, at: subscription.next_charge!.at },
    });
    expect(license.organisation).toMatchObject({ id: org.id });
  });

  it('seats bought later: the prorated charge as paid, and the next charge for every seat', async () => {
    const s = server();
    const org = await organisationWithRoles(s);
    const { subscription } = await buyForOrganisation(s, org.owner, org.id, 2);
    await later(s, org.owner, 10 * DAY);
    const response = await buySeats(s, org.owner, org.id, 5);
    expect(response.statusCode, response.body).toBe(200);
    const bought = seatPurchaseSchema.parse(response.json());
    const charges = await chargesOf(s, subscription.id);
    const paid = charges.find((row) => row.provider_order_id.includes('#seats:2-5'));
    expect(paid).toBeDefined();
    expect(bought.charge).toMatchObject({
      quantity: 1,
      discount: null,
      charged_today_minor: Number(paid!.amount_minor),
      next_charge: { amount_minor: 5 * 149_900, at: subscription.current_period_end },
    });
    expect(bought.charge!.charged_today_minor).toBeGreaterThan(0);
    expect(bought.charge!.charged_today_minor).toBeLessThan(3 * 149_900);
    expect(taxTotal(bought.charge!.taxes)).toBe(Number((await invoiceOf(s, paid!.id)).tax_minor));
  });

  it('a lifetime purchase says what it charged and no next charge', async () => {
    const s = server();
    const buyer = await member(s);
    const plan = await createPlan(s, {
      price: 2_499_900,
      interval: 'lifetime',
      features: { code_assistant: null },
    });
    const order = await openOrder(s, buyer.token, plan.id);
    const verified = expectVerified(
      await verifyPayment(s, buyer.token, await payInSandbox(s, buyer.token, order.order_id)),
    );
    expect(verified.charge).toMatchObject({
      quantity: 1,
      list_price_minor: 2_499_900,
      unit_price_minor: 2_499_900,
      discount: null,
      charged_today_minor: 2_499_900,
      next_charge: null,
    });
    expect(verified.license.renews).toBe(false);
  });
});

describeOnEveryDatabase(
  'charge summaries: the tax is added to the prices',
  (server) => {
    it('a 20 % coupon on ₹999 plus 18 %: ₹799.20 before tax, ₹143.86 of tax, ₹943.06 today', async () => {
      const s = server();
      const buyer = await member(s);
      const code = await coupon(s, { percent_off: 20, duration: 'forever' });
      const { charge } = await subscribe(s, buyer, 'pro-monthly', { couponCode: code });
      expect(charge).toMatchObject({
        list_price_minor: 99_900,
        unit_price_minor: 79_920,
        discount: { amount_minor: 19_980 },
        lines_include_tax: false,
        charged_today_minor: 94_306,
        next_charge: { amount_minor: 94_306 },
      });
      expect(taxTotal(charge!.taxes)).toBe(14_386);
    });
  },
  { env: { TAX_INCLUSIVE: 'false' } },
);

describeOnEveryDatabase('licenses: renews', (server) => {
  it('is true while an active subscription will renew the license, false once canceled at period end', async () => {
    const s = server();
    const buyer = await member(s);
    const { subscription, license } = await subscribe(s, buyer, 'pro-monthly');
    expect(license.renews).toBe(true);
    const listed = async () => {
      const response = await s.api({ method: 'GET', path: '/licenses', token: buyer.token });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<Array<{ license_id: string; renews: boolean }>>();
    };
    expect((await listed()).find((item) => item.license_id === license.license_id)?.renews).toBe(true);
    const cancel = await s.api({
      method: 'POST',
      path: `/subscriptions/${subscription.id}/cancel`,
      token: buyer.token,
      body: { at: 'period_end' },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect((await listed()).find((item) => item.license_id === license.license_id)?.renews).toBe(false);
  });
});

describeOnEveryDatabase('subscriptions: a lifetime license already owned', (server) => {
  async function lifetimeLike(s: TestServer, planCode: string, drop?: string) {
    const plan = await planByCode(s, planCode);
    const features = await s.app.db
      .selectFrom('plan_features')
      .innerJoin('features', 'features.id', 'plan_features.feature_id')
      .select(['features.key', 'plan_features.limit_value'])
      .where('plan_id', '=', plan.id)
      .execute();
    return createPlan(s, {
      price: 2_499_900,
      interval: 'lifetime',
      features: Object.fromEntries(
        features.filter((row) => row.key !== drop).map((row) => [row.key, row.limit_value]),
      ),
    });
  }

  const open = (s: TestServer, who: Member, planId: string, extra: Record<string, unknown> = {}) =>
    s.api({ method: 'POST', path: '/subscriptions', token: who.token, body: { plan_id: planId, ...extra } });

  it('refuses monthly Pro with 409 lifetime_license_owned, and opens it when the buyer confirms', async () => {
    const s = server();
    const buyer = await member(s);
    const lifetime = await lifetimeLike(s, 'pro-monthly');
    const order = await openOrder(s, buyer.token, lifetime.id);
    expectVerified(await verifyPayment(s, buyer.token, await payInSandbox(s, buyer.token, order.order_id)));
    const pro = await planByCode(s, 'pro-monthly');

    const refused = await open(s, buyer, pro.id);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'lifetime_license_owned' });
    expect(refused.json<{ message: string }>().message).toContain(lifetime.name);
    expect(await s.app.db.selectFrom('subscriptions').select('id').execute()).toHaveLength(0);

    const notBoolean = await open(s, buyer, pro.id, { confirm_lifetime_overlap: 'yes' });
    expect(notBoolean.statusCode, notBoolean.body).toBe(400);

    const confirmed = await open(s, buyer, pro.id, { confirm_lifetime_overlap: true });
    expect(confirmed.statusCode, confirmed.body).toBe(201);
  });

  it('lets a lifetime license that lacks one of the plan’s features, or a revoked one, pass', async () => {
    const s = server();
    const buyer = await member(s);
    const pro = await planByCode(s, 'pro-monthly');
    const partial = await lifetimeLike(s, 'pro-monthly', 'code_assistant');
    const order = await openOrder(s, buyer.token, partial.id);
    expectVerified(await verifyPayment(s, buyer.token, await payInSandbox(s, buyer.token, order.order_id)));
    expect((await open(s, buyer, pro.id)).statusCode).toBe(201);

    const other = await member(s);
    const full = await lifetimeLike(s, 'pro-monthly');
    const second = await openOrder(s, other.token, full.id);
    const { license } = expectVerified(
      await verifyPayment(s, other.token, await payInSandbox(s, other.token, second.order_id)),
    );
    await s.app.db
      .updateTable('licenses')
      .set({ status: 'revoked', revoked_at: s.clock.now().toISOString(), revoked_reason: 'test' })
      .where('id', '=', license.license_id)
      .execute();
    expect((await open(s, other, pro.id)).statusCode).toBe(201);
  });
});
