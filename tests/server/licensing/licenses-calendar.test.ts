import { expect, it } from 'vitest';
import { type License, licenseSchema } from '../../../src/shared/api/licenses.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { createPlan, member, planByCode, signInAgain } from '../helpers/license-helpers.js';
import { expectVerified, openOrder, payInSandbox, verifyPayment } from '../helpers/payment-helpers.js';

/*
 * Licenses bought for a month or a year run to the same day of the next month or year, or to
 * the last day of that month when it has no such day: bought on 31 January, a monthly license
 * ends on 28 (or 29) February, not on 3 March.
 */

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const lastOfFebruary = (year: number) => `${year}-02-${isLeapYear(year) ? 29 : 28}`;

/** Sets the server's clock to `iso` (it keeps ticking from there). */
const moveClockTo = (s: TestServer, iso: string) =>
  s.clock.advance(Date.parse(iso) - s.clock.now().getTime());

/** 31 January of next year, mid-morning UTC: always ahead of the real date. */
const nextThirtyFirstOfJanuary = (s: TestServer) => {
  const year = s.clock.now().getUTCFullYear() + 1;
  return { year, moment: `${year}-01-31T09:30:00.000Z` };
};

/** The day (YYYY-MM-DD) and the time of day of an ISO instant. */
const dayAndTime = (iso: string | null) => ({ day: iso?.slice(0, 10), time: iso?.slice(10) });

async function buyInSandbox(s: TestServer, token: string, planId: string): Promise<License> {
  const order = await openOrder(s, token, planId);
  return expectVerified(await verifyPayment(s, token, await payInSandbox(s, token, order.order_id))).license;
}

async function licenseStatus(s: TestServer, token: string, licenseId: string) {
  const response = await s.api({ path: `/licenses/${licenseId}`, token });
  expect(response.statusCode, response.body).toBe(200);
  return licenseSchema.parse(response.json()).status;
}

describeOnEveryDatabase('licenses: calendar months and years', (server) => {
  it('a monthly plan bought on 31 January expires on the last day of February, at the time it was bought', async () => {
    const s = server();
    const { year, moment } = nextThirtyFirstOfJanuary(s);
    moveClockTo(s, moment);
    const buyer = await member(s);
    const pro = await planByCode(s, 'pro-monthly');

    const license = await buyInSandbox(s, buyer.token, pro.id);
    expect(license.created_at.slice(0, 10)).toBe(`${year}-01-31`);
    expect(dayAndTime(license.expires_at)).toEqual({
      day: lastOfFebruary(year),
      time: license.created_at.slice(10),
    });

    // Still in use on the last day of February; over on 1 March (it used to run into March).
    moveClockTo(s, `${lastOfFebruary(year)}T08:00:00.000Z`);
    await signInAgain(s, buyer);
    expect(await licenseStatus(s, buyer.token, license.license_id)).toBe('active');
    moveClockTo(s, `${year}-03-01T08:00:00.000Z`);
    await signInAgain(s, buyer);
    expect(await licenseStatus(s, buyer.token, license.license_id)).toBe('expired');
  });

  it('a free monthly plan activated on 31 January expires on the last day of February', async () => {
    const s = server();
    const { year, moment } = nextThirtyFirstOfJanuary(s);
    moveClockTo(s, moment);
    const user = await member(s);
    const plan = await createPlan(s, { price: 0, interval: 'month' });

    const response = await s.api({
      method: 'POST',
      path: '/licenses/activate-plan',
      token: user.token,
      body: { planId: plan.id, userInfo: {} },
    });
    expect(response.statusCode, response.body).toBe(201);
    const license = licenseSchema.parse(response.json());
    expect(dayAndTime(license.expires_at)).toEqual({
      day: lastOfFebruary(year),
      time: license.created_at.slice(10),
    });
  });

  it('paying again for a monthly license adds a month to its expiry: 28 February becomes 28 March', async () => {
    const s = server();
    const { year, moment } = nextThirtyFirstOfJanuary(s);
    moveClockTo(s, moment);
    const buyer = await member(s);
    const plan = await createPlan(s, { price: 50_000, interval: 'month' });
    const first = await buyInSandbox(s, buyer.token, plan.id);

    moveClockTo(s, `${year}-02-15T12:00:00.000Z`);
    await signInAgain(s, buyer);
    const renewed = await buyInSandbox(s, buyer.token, plan.id);
    expect(renewed.license_id).toBe(first.license_id);
    const lastDay = lastOfFebruary(year).slice(8);
    expect(dayAndTime(renewed.expires_at)).toEqual({
      day: `${year}-03-${lastDay}`,
      time: first.created_at.slice(10),
    });
  });

  it('a yearly plan bought on 29 February expires on 28 February of the next year', async () => {
    const s = server();
    let year = s.clock.now().getUTCFullYear() + 1;
    while (!isLeapYear(year)) year += 1;
    moveClockTo(s, `${year}-02-29T18:45:00.000Z`);
    const buyer = await member(s);
    const plan = await createPlan(s, { price: 500_000, interval: 'year', seats: 2 });

    const license = await buyInSandbox(s, buyer.token, plan.id);
    expect(license.created_at.slice(0, 10)).toBe(`${year}-02-29`);
    expect(dayAndTime(license.expires_at)).toEqual({
      day: `${year + 1}-02-28`,
      time: license.created_at.slice(10),
    });
  });
});
