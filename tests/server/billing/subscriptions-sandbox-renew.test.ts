import { expect, it } from 'vitest';
import { subscriptionSchema } from '../../../src/shared/api/subscriptions.js';
import { utc } from '../../../src/shared/dates.js';
import { buildApp } from '../../../src/server/app.js';
import { describeOnEveryDatabase, type TestServer, WEB_API_KEY } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import { type Member, member, signInAgain } from '../helpers/license-helpers.js';
import {
  chargesOf,
  licenseRow,
  subscribe,
  subscriptionCall,
  subscriptionRow,
} from '../helpers/subscription-helpers.js';

/**
 * "Simulate next renewal" (POST /subscriptions/{id}/sandbox/renew) follows the rules of a real
 * renewal: the new period starts where the paid one ends, is counted in calendar months (or years)
 * from the subscription's anchor as real renewals are, and neither the paid period nor the
 * license's expiry ever moves back. This file moves the test clock to fixed dates from 2028 (a leap
 * year) on, so it has servers of its own.
 */

/** Stops the clock at `at` (forward from wherever it is) and signs the people in again. */
async function clockAt(s: TestServer, at: string, ...who: Member[]): Promise<void> {
  s.clock.freeze();
  const step = Date.parse(at) - s.clock.now().getTime();
  if (step < 0) throw new Error(`the test clock is past ${at} already`);
  s.clock.advance(step);
  for (const person of who) await signInAgain(s, person);
}

const renew = (s: TestServer, who: Member, id: string) =>
  subscriptionCall(s, who, 'POST', `/subscriptions/${id}/sandbox/renew`);

/** The subscription's charge of one cycle. */
const chargeOfCycle = async (s: TestServer, id: string, cycle: number) =>
  (await chargesOf(s, id)).find((charge) => charge.provider_order_id.endsWith(`#${cycle}`));

/**
 * One simulated renewal, paid: the period that follows the paid one, to `end`; the license runs
 * to it; nothing the customer paid for ends sooner than before.
 */
async function renewTo(s: TestServer, who: Member, id: string, end: string) {
  const before = await subscriptionRow(s, id);
  const licenseBefore = await licenseRow(s, before.license_id as string);
  const context = `renewal at ${s.clock.now().toISOString()} of ${before.current_period_start} → ${before.current_period_end}`;
  const answer = await renew(s, who, id);
  const period = { current_period_start: before.current_period_end, current_period_end: end };
  expect(answer, context).toMatchObject({ status: 'active', ...period });
  expect(await subscriptionRow(s, id), context).toMatchObject({ cycles: before.cycles + 1, ...period });
  const license = await licenseRow(s, before.license_id as string);
  expect(license.expires_at, context).toBe(end);
  expect(license.expires_at! > licenseBefore.expires_at!, context).toBe(true);
  expect(await chargeOfCycle(s, id, before.cycles + 1), context).toMatchObject({
    status: 'paid',
    period_start: before.current_period_end,
    period_end: end,
  });
}

const day = (date: string) => `${date}T10:00:00.000Z`;

describeOnEveryDatabase('subscriptions: sandbox renewals follow the real period rules', (server) => {
  it('repeated simulated renewals across month ends and leap years: each period starts where the last ended, on the anchor’s day', async () => {
    const s = server();
    const monthly = await member(s);
    const yearly = await member(s);
    await clockAt(s, day('2028-01-31'), monthly, yearly);
    const { subscription } = await subscribe(s, monthly, 'pro-monthly');
    // Bought on 31 January of a leap year: the first month ends on the leap day.
    expect(subscription.current_period_end).toBe(day('2028-02-29'));

    // Simulated one after the other at the same moment, each the month after the last, ending on
    // the 31st or the month's last day as real renewals of a subscription started on a 31st do.
    for (const end of ['2028-03-31', '2028-04-30', '2028-05-31'])
      await renewTo(s, monthly, subscription.id, day(end));
    // A year bought on the leap day: it ends on 28 February of the next year.
    await clockAt(s, day('2028-02-29'), monthly, yearly);
    const { subscription: year } = await subscribe(s, yearly, 'pro-yearly');
    expect(year.current_period_end).toBe(day('2029-02-28'));
    // Time passes to the end of the paid period: the scheduler's real renewal follows on.
    await clockAt(s, day('2028-05-31'), monthly, yearly);
    expect(await s.app.scheduler.runOnce()).toBe(true);
    expect(await subscriptionRow(s, subscription.id)).toMatchObject({
      cycles: 5,
      current_period_start: day('2028-05-31'),
      current_period_end: day('2028-06-30'),
    });
    // Simulated again, mid-period, through a common year's February.
    await clockAt(s, day('2028-06-15'), monthly, yearly);
    for (const end of [
      '2028-07-31',
      '2028-08-31',
      '2028-09-30',
      '2028-10-31',
      '2028-11-30',
      '2028-12-31',
      '2029-01-31',
      '2029-02-28',
      '2029-03-31',
    ])
      await renewTo(s, monthly, subscription.id, day(end));

    // The year renewed: to the next 28 February, and in the next leap year to 29 February again,
    // counted from the day it was bought.
    for (const end of ['2030-02-28', '2031-02-28', '2032-02-29', '2033-02-28'])
      await renewTo(s, yearly, year.id, day(end));
  });

  it('a declined simulated renewal: grace from the end of the paid period, retries, suspension; a paying card then pays on from where it ended', async () => {
    const s = server();
    const buyer = await member(s);
    await clockAt(s, day('2029-03-31'), buyer);
    const { subscription, license } = await subscribe(s, buyer);
    const paidTo = day('2029-04-30');
    expect(subscription.current_period_end).toBe(paidTo);
    const path = `/subscriptions/${subscription.id}`;
    await subscriptionCall(s, buyer, 'PUT', `${path}/payment-method`, { sandbox_card: 'declines' });

    // The renewal is declined: past due, with the grace period counted from the end of the paid one.
    const graceEnd = utc(paidTo).add(7, 'day').toISOString();
    expect(await renew(s, buyer, subscription.id)).toMatchObject({
      status: 'past_due',
      current_period_end: paidTo,
      grace_ends_at: graceEnd,
      failed_attempts: 1,
    });
    expect((await licenseRow(s, license.license_id)).expires_at).toBe(graceEnd);
    // The retries fail too; nothing the customer had moves back meanwhile.
    for (const attempts of [2, 3, 4]) {
      expect(await renew(s, buyer, subscription.id)).toMatchObject({
        status: 'past_due',
        current_period_end: paidTo,
        grace_ends_at: graceEnd,
        failed_attempts: attempts,
      });
      expect((await licenseRow(s, license.license_id)).expires_at).toBe(graceEnd);
    }
    // The end of the grace period, brought forward to now: suspended.
    const now = s.clock.now().toISOString();
    const suspended = await renew(s, buyer, subscription.id);
    expect(suspended).toMatchObject({ status: 'suspended', grace_ends_at: now });
    const endedAt = suspended.current_period_end as string;
    expect(endedAt).toBe(utc(now).subtract(7, 'day').toISOString());
    expect(await licenseRow(s, license.license_id)).toMatchObject({ status: 'suspended', expires_at: now });
    expectApiError(
      await s.api({ method: 'POST', path: `${path}/sandbox/renew`, token: buyer.token }),
      409,
      'nothing_due',
    );

    // A card that pays: the outstanding renewal pays the month from where the paid period ended.
    const restored = await subscriptionCall(s, buyer, 'PUT', `${path}/payment-method`, {
      sandbox_card: 'succeeds',
    });
    const end = utc(endedAt).add(1, 'month').toISOString();
    expect(restored).toMatchObject({
      status: 'active',
      current_period_start: endedAt,
      current_period_end: end,
    });
    expect(await licenseRow(s, license.license_id)).toMatchObject({ status: 'active', expires_at: end });
    expect(await chargeOfCycle(s, subscription.id, 2)).toMatchObject({
      status: 'paid',
      period_start: endedAt,
      period_end: end,
    });
    // And the next simulated renewal follows on from there.
    await renewTo(s, buyer, subscription.id, utc(endedAt).add(2, 'month').toISOString());
  });

  it('a simulated renewal that finds nothing due changes nothing, not even the card it was given', async () => {
    const s = server();
    const buyer = await member(s);
    await clockAt(s, day('2029-06-15'), buyer);
    const { subscription, license } = await subscribe(s, buyer);
    await subscriptionCall(s, buyer, 'POST', `/subscriptions/${subscription.id}/cancel`, { at: 'now' });
    const before = await subscriptionRow(s, subscription.id);
    expectApiError(
      await s.api({
        method: 'POST',
        path: `/subscriptions/${subscription.id}/sandbox/renew`,
        token: buyer.token,
      }),
      409,
      'nothing_due',
    );
    await expect(
      s.app.subscriptions.sandboxAdvance(subscription.id, { card: 'declines' }),
    ).rejects.toMatchObject({ statusCode: 409 });
    expect(await subscriptionRow(s, subscription.id)).toEqual(before);
    expect((await licenseRow(s, license.license_id)).expires_at).toBe(before.ended_at);
  });

  it('two instances on one database, 20 × "simulate renewal" and "cancel now" at once: one runs after the other, never interleaved', async () => {
    const s = server();
    const buyer = await member(s);
    await clockAt(s, day('2029-08-15'), buyer);
    const now = s.clock.now().toISOString();
    // The second instance: its own app and connection pool on the same database and clock.
    const second = await buildApp(s.config, { clock: s.clock, logger: false });
    try {
      const onSecond = (method: 'POST', path: string, body?: unknown) =>
        second.inject({
          method,
          url: `/api/v1${path}`,
          headers: { 'x-api-key': WEB_API_KEY, authorization: `Bearer ${buyer.token}` },
          ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
        });
      const outcomes = { renewedFirst: 0, cancelledFirst: 0 };
      for (let pair = 0; pair < 20; pair++) {
        const { subscription, license } = await subscribe(s, buyer, pair % 2 ? 'pro-monthly' : 'pro-yearly');
        const renewPath = `/subscriptions/${subscription.id}/sandbox/renew`;
        const cancelPath = `/subscriptions/${subscription.id}/cancel`;
        // Each instance takes either part in turn, and either is sent first.
        const [renewed, cancelled] =
          pair % 4 < 2
            ? await Promise.all([
                s.api({ method: 'POST', path: renewPath, token: buyer.token }),
                onSecond('POST', cancelPath, { at: 'now' }),
              ])
            : (
                await Promise.all([
                  s.api({ method: 'POST', path: cancelPath, token: buyer.token, body: { at: 'now' } }),
                  onSecond('POST', renewPath),
                ])
              ).reverse();
        const context = `pair ${pair}: renew ${renewed?.statusCode} ${renewed?.body}`;
        expect(cancelled?.statusCode, cancelled?.body).toBe(200);
        const row = await subscriptionRow(s, subscription.id);
        const expiry = (await licenseRow(s, license.license_id)).expires_at;
        const charges = await chargesOf(s, subscription.id);
        // Whatever ran first, the subscription ended now and so did its license: not a moment earlier.
        expect(row, context).toMatchObject({ status: 'cancelled', ended_at: now });
        expect(expiry, context).toBe(now);
        if (renewed?.statusCode === 200) {
          // The renewal ran first, all of it: the next period paid; then the cancellation.
          outcomes.renewedFirst++;
          const period = {
            current_period_start: subscription.current_period_end,
            current_period_end: utc(now)
              .add(2, pair % 2 ? 'month' : 'year')
              .toISOString(),
          };
          expect(subscriptionSchema.parse(renewed.json()), context).toMatchObject({
            status: 'active',
            ...period,
          });
          expect(row, context).toMatchObject({ cycles: 2, ...period });
          expect(charges.map((charge) => charge.status)).toEqual(['paid', 'paid']);
        } else {
          // The cancellation ran first: nothing was due any more, and no date was moved.
          outcomes.cancelledFirst++;
          expectApiError(renewed!, 409, 'nothing_due');
          expect(row, context).toMatchObject({
            cycles: 1,
            current_period_start: subscription.current_period_start,
            current_period_end: subscription.current_period_end,
          });
          expect(charges).toHaveLength(1);
        }
      }
      expect(outcomes.renewedFirst + outcomes.cancelledFirst).toBe(20);
    } finally {
      await second.close();
    }
  });
});
