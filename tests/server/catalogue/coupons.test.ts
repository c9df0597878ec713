import { expect, it } from 'vitest';
import { couponPreviewSchema, couponSchema } from '../../../src/shared/api/coupons.js';
import { paymentOrderSchema } from '../../../src/shared/api/payments.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import { type Member, member, planByCode } from '../helpers/license-helpers.js';
import { chargesOf, DAY, later, subscribe, subscriptionRow } from '../helpers/subscription-helpers.js';

let codeSequence = 0;
const newCode = (label: string) => `${label}-${process.pid}-${++codeSequence}`.toUpperCase();

async function createCoupon(s: TestServer, admin: Member, body: Record<string, unknown>) {
  const response = await s.api({ method: 'POST', path: '/admin/coupons', token: admin.token, body });
  expect(response.statusCode, response.body).toBe(201);
  return couponSchema.parse(response.json());
}

const order = (s: TestServer, who: Member, planId: string, couponCode?: string) =>
  s.api({
    method: 'POST',
    path: '/payments/razorpay/create-order',
    token: who.token,
    body: { plan_id: planId, ...(couponCode ? { coupon_code: couponCode } : {}) },
  });

describeOnEveryDatabase('coupons', (server) => {
  it('an administrator creates coupons; bad ones are refused with the reason; others may not', async () => {
    const s = server();
    const admin = await member(s, 'admin');
    const code = newCode('spring');
    const coupon = await createCoupon(s, admin, { code: code.toLowerCase(), percent_off: 20 });
    expect(coupon).toMatchObject({
      code,
      percent_off: 20,
      duration: 'once',
      redeemed_count: 0,
      archived: false,
    });

    const post = (body: unknown, token = admin.token) =>
      s.api({ method: 'POST', path: '/admin/coupons', token, body });
    expectApiError(
      await post({ code: newCode('both'), percent_off: 5, amount_off_minor: 100, currency: 'INR' }),
      400,
      'validation_error',
    );
    expectApiError(await post({ code: newCode('nocur'), amount_off_minor: 100 }), 400, 'validation_error');
    expectApiError(await post({ code: 'x', percent_off: 5 }), 400, 'validation_error');
    expectApiError(await post({ code: newCode('pct'), percent_off: 101 }), 400, 'validation_error');
    const past = await post({
      code: newCode('past'),
      percent_off: 5,
      expires_at: new Date(s.clock.now().getTime() - DAY).toISOString(),
    });
    expectApiError(past, 400, 'validation_error');
    expect(past.json<{ errors: { field: string }[] }>().errors).toEqual([
      { field: 'expires_at', message: 'expires_at must be in the future' },
    ]);
    expectApiError(await post({ code, percent_off: 5 }), 409, 'coupon_code_taken');
    const user = await member(s);
    expectApiError(await post({ code: newCode('user'), percent_off: 5 }, user.token), 403, 'admin_required');
    const events = await s.app.db
      .selectFrom('security_events')
      .select(['type', 'actor_id'])
      .where('type', '=', 'coupon_changed')
      .where('actor_id', '=', admin.id)
      .execute();
    expect(events).toHaveLength(1);
  });

  it('a one-off purchase with a coupon is charged the discounted price, once per customer; archived and expired ones are refused', async () => {
    const s = server();
    const admin = await member(s, 'admin');
    const buyer = await member(s);
    const pro = await planByCode(s, 'pro-monthly');
    const coupon = await createCoupon(s, admin, { code: newCode('third'), percent_off: 33 });
    const discount = Math.floor((pro.price_minor * 33) / 100);

    const preview = await s.api({
      method: 'POST',
      path: '/coupons/preview',
      token: buyer.token,
      body: { code: coupon.code.toLowerCase(), plan_id: pro.id },
    });
    expect(couponPreviewSchema.parse(preview.json())).toMatchObject({
      code: coupon.code,
      amount_minor: pro.price_minor,
      discount_minor: discount,
      amount_after_minor: pro.price_minor - discount,
    });

    const opened = await order(s, buyer, pro.id, coupon.code);
    expect(opened.statusCode, opened.body).toBe(201);
    expect(paymentOrderSchema.parse(opened.json()).amount).toBe(pro.price_minor - discount);
    expectApiError(await order(s, buyer, pro.id, coupon.code), 409, 'coupon_already_used');
    expectApiError(await order(s, buyer, pro.id, 'NO-SUCH-CODE'), 404, 'coupon_not_found');
    const dollars = await createCoupon(s, admin, {
      code: newCode('usd'),
      amount_off_minor: 10000,
      currency: 'USD',
    });
    const other = expectApiError(await order(s, buyer, pro.id, dollars.code), 409, 'coupon_not_applicable');
    expect(other.message).toContain('$100.00 off, and this price is in INR');

    const expiring = await createCoupon(s, admin, {
      code: newCode('soon'),
      percent_off: 10,
      expires_at: new Date(s.clock.now().getTime() + DAY).toISOString(),
    });
    await later(s, buyer, 2 * DAY);
    await later(s, admin, 0);
    expectApiError(await order(s, buyer, pro.id, expiring.code), 409, 'coupon_expired');
    const archived = await s.api({
      method: 'PUT',
      path: `/admin/coupons/${coupon.id}`,
      token: admin.token,
      body: { archived: true },
    });
    expect(couponSchema.parse(archived.json()).archived).toBe(true);
    const latecomer = await member(s);
    expectApiError(await order(s, latecomer, pro.id, coupon.code), 404, 'coupon_not_found');
  });

  it('a subscription coupon discounts the first charge only (once) or every charge (forever)', async () => {
    const s = server();
    const admin = await member(s, 'admin');
    const pro = await planByCode(s, 'pro-monthly');
    const once = await createCoupon(s, admin, {
      code: newCode('once'),
      amount_off_minor: 5000,
      currency: 'INR',
    });
    const forever = await createCoupon(s, admin, {
      code: newCode('ever'),
      percent_off: 10,
      duration: 'forever',
    });

    for (const [coupon, renewal] of [
      [once, pro.price_minor],
      [forever, pro.price_minor - Math.floor(pro.price_minor / 10)],
    ] as const) {
      const buyer = await member(s);
      const { checkout } = await subscribe(s, buyer, 'pro-monthly', { couponCode: coupon.code });
      const first = pro.price_minor - (coupon === once ? 5000 : Math.floor(pro.price_minor / 10));
      expect(checkout.amount).toBe(first);
      const row = await subscriptionRow(s, checkout.subscription.id);
      await s.app.subscriptions.sandboxAdvance(row.id);
      expect((await chargesOf(s, row.id)).map((charge) => charge.amount_minor)).toEqual([first, renewal]);
    }
  });

  it('checkouts racing for a coupon’s last redemptions: exactly the limit get it', async () => {
    const s = server();
    const admin = await member(s, 'admin');
    const pro = await planByCode(s, 'pro-monthly');
    const coupon = await createCoupon(s, admin, {
      code: newCode('limited'),
      percent_off: 50,
      max_redemptions: 3,
    });
    const buyers = await Promise.all([1, 2, 3, 4, 5, 6].map(() => member(s)));
    const answers = await Promise.all(
      buyers.map((buyer, index) =>
        index % 2 === 0
          ? order(s, buyer, pro.id, coupon.code)
          : s.api({
              method: 'POST',
              path: '/subscriptions',
              token: buyer.token,
              body: { plan_id: pro.id, coupon_code: coupon.code },
            }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([201, 201, 201, 409, 409, 409]);
    for (const refused of answers.filter((answer) => answer.statusCode === 409))
      expectApiError(refused, 409, 'coupon_exhausted');
    const stored = await s.app.db
      .selectFrom('coupons')
      .selectAll()
      .where('id', '=', coupon.id)
      .executeTakeFirstOrThrow();
    expect(Number(stored.redeemed_count)).toBe(3);
    const redemptions = await s.app.db
      .selectFrom('coupon_redemptions')
      .select('id')
      .where('coupon_id', '=', coupon.id)
      .execute();
    expect(redemptions).toHaveLength(3);
  });
});
