import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { subscriptionCheckoutSchema } from '../../../src/shared/api/subscriptions.js';
import type { Config } from '../../../src/server/platform/config.js';
import { createRazorpayProvider } from '../../../src/server/billing/payments/razorpay-provider.js';
import {
  describeOnEveryDatabase,
  type TestServer,
  type TestServerOptions,
} from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import {
  type Member,
  expectRefusal,
  member,
  planByCode,
  statusOf,
  activate,
  machine,
  expectActivation,
  signInAgain,
} from '../helpers/license-helpers.js';
import { hmacHex, newEventId } from '../helpers/payment-helpers.js';
import {
  deliver,
  fakeRazorpaySubscriptionsApi,
  KEY_ID,
  KEY_SECRET,
  signedAnswer,
  subscriptionEvent,
  WEBHOOK_SECRET,
} from '../helpers/razorpay-subscriptions-fake.js';
import { type QueryRecorder, recordedDatabase } from '../../support/query-recorder.js';
import { chargesOf, later, licenseRow, subscriptionRow } from '../helpers/subscription-helpers.js';

const fake = fakeRazorpaySubscriptionsApi();
let fakeUrl: string | undefined;
beforeAll(async () => {
  fakeUrl = await fake.start();
});
afterAll(async () => fake.stop());

/** The statements of the suite's server, for the test that counts what a renewal reads. */
let recorder: QueryRecorder | undefined;

const razorpayServer: TestServerOptions = {
  env: { RAZORPAY_KEY_ID: KEY_ID, RAZORPAY_KEY_SECRET: KEY_SECRET, RAZORPAY_WEBHOOK_SECRET: WEBHOOK_SECRET },
  appOverrides: (config: Config) => {
    const settings = config.payments.razorpay;
    if (!settings || !fakeUrl) throw new Error('the Razorpay keys or the fake API are missing');
    const recorded = recordedDatabase(config);
    recorder = recorded.recorder;
    return {
      paymentProvider: createRazorpayProvider({ ...settings, apiUrl: fakeUrl }),
      database: recorded.database,
    };
  },
};

/** Opens a Razorpay subscription of `buyer` to `plan` (not paid yet): what Checkout would open with. */
async function openSubscription(s: TestServer, buyer: Member, plan: { id: string }) {
  const opened = await s.api({
    method: 'POST',
    path: '/subscriptions',
    token: buyer.token,
    body: { plan_id: plan.id },
  });
  expect(opened.statusCode, opened.body).toBe(201);
  return subscriptionCheckoutSchema.parse(opened.json());
}

/** Razorpay's `subscription.charged` report of its charge `paidCount`, paid by `paymentId`. */
const charged = (
  s: TestServer,
  subscriptionId: string,
  paidCount: number,
  paymentId: string,
  amount: number,
) =>
  deliver(
    s,
    subscriptionEvent(
      'subscription.charged',
      { id: subscriptionId, paidCount, status: 'active' },
      { id: paymentId, amount },
    ),
  );

describeOnEveryDatabase(
  'subscriptions with Razorpay (fake Razorpay API; webhook payloads in Razorpay’s documented format)',
  (server) => {
    beforeEach(() => {
      fake.refuse(false);
      fake.refuseRefunds(false);
    });

    it('subscribing mirrors the plan once, opens a Razorpay subscription, and Checkout’s signature starts it', async () => {
      const s = server();
      const buyer = await member(s);
      const pro = await planByCode(s, 'pro-monthly');
      const before = fake.requests.length;
      const opened = await s.api({
        method: 'POST',
        path: '/subscriptions',
        token: buyer.token,
        body: { plan_id: pro.id },
      });
      expect(opened.statusCode, opened.body).toBe(201);
      const checkout = subscriptionCheckoutSchema.parse(opened.json());
      expect(checkout).toMatchObject({ key_id: KEY_ID, sandbox: false, amount: pro.price_minor });
      expect(checkout.subscription_id).toMatch(/^sub_Fake/);
      const sent = fake.requests.slice(before);
      expect(sent.map((request) => `${request.method} ${request.url}`)).toEqual([
        'POST /v1/plans',
        'POST /v1/subscriptions',
      ]);
      expect(sent[0]?.body).toMatchObject({
        period: 'monthly',
        interval: 1,
        item: { amount: pro.price_minor, currency: 'INR', name: pro.name },
      });
      expect(sent[1]?.body).toMatchObject({ plan_id: expect.stringMatching(/^plan_Fake/), total_count: 120 });

      // A second subscriber to the same plan and price reuses the mirrored plan.
      const other = await member(s);
      const again = fake.requests.length;
      await s.api({ method: 'POST', path: '/subscriptions', token: other.token, body: { plan_id: pro.id } });
      expect(fake.requests.slice(again).map((request) => request.url)).toEqual(['/v1/subscriptions']);

      // What Checkout hands the page: HMAC-SHA256(payment_id|subscription_id) with the key secret.
      const paymentId = `pay_Fake${randomBytes(5).toString('hex')}`;
      const verified = await s.api({
        method: 'POST',
        path: '/subscriptions/verify',
        token: buyer.token,
        body: signedAnswer(checkout.subscription_id, paymentId),
      });
      expect(verified.statusCode, verified.body).toBe(200);
      expect(await subscriptionRow(s, checkout.subscription.id)).toMatchObject({
        status: 'active',
        cycles: 1,
      });

      // The same first charge reported by subscription.charged afterwards changes nothing.
      const report = subscriptionEvent(
        'subscription.charged',
        { id: checkout.subscription_id, paidCount: 1, status: 'active' },
        { id: paymentId, amount: pro.price_minor },
      );
      expect((await deliver(s, report)).json()).toEqual({ status: 'processed' });
      expect(await chargesOf(s, checkout.subscription.id)).toHaveLength(1);
      expect((await subscriptionRow(s, checkout.subscription.id)).payment_method).toBe(
        'Card •••• 1111 (Visa)',
      );
    });

    it('two Checkouts of one plan both charged, reported by webhook: the first starts the subscription; the second is refused, cancelled at Razorpay and refunded there in full by the scheduler, and its verify answers 409', async () => {
      const s = server();
      const buyer = await member(s);
      const pro = await planByCode(s, 'pro-monthly');
      const first = await openSubscription(s, buyer, pro);
      const second = await openSubscription(s, buyer, pro);
      const [paidFirst, paidSecond] = ['pay_FakeDupFirst1', 'pay_FakeDupSecond1'];
      expect((await charged(s, first.subscription_id, 1, paidFirst, pro.price_minor)).statusCode).toBe(200);
      expect((await charged(s, second.subscription_id, 1, paidSecond, pro.price_minor)).statusCode).toBe(200);
      expect(await subscriptionRow(s, first.subscription.id)).toMatchObject({ status: 'active' });
      const refused = await subscriptionRow(s, second.subscription.id);
      expect(refused).toMatchObject({ status: 'cancelled', license_id: null });
      const secondCharge = await s.app.db
        .selectFrom('payments')
        .selectAll()
        .where('provider_payment_id', '=', paidSecond)
        .executeTakeFirstOrThrow();
      expect(secondCharge.status).toBe('paid');
      const refundOf = () =>
        s.app.db.selectFrom('refunds').selectAll().where('payment_id', '=', secondCharge.id).execute();
      // Reserved with the refusal; the scheduler asks Razorpay once the request had its chance.
      expect(await refundOf()).toMatchObject([{ status: 'pending', amount_minor: pro.price_minor }]);
      const verified = await s.api({
        method: 'POST',
        path: '/subscriptions/verify',
        token: buyer.token,
        body: signedAnswer(second.subscription_id, paidSecond),
      });
      expect(verified.statusCode, verified.body).toBe(409);
      expect(verified.json()).toMatchObject({ code: 'already_subscribed' });
      const before = fake.requests.length;
      await later(s, buyer, 11 * 60_000);
      await s.app.scheduler.runOnce();
      const sent = fake.requests.slice(before).map((request) => `${request.method} ${request.url}`);
      expect(sent).toContain(`POST /v1/subscriptions/${second.subscription_id}/cancel`);
      expect(sent).toContain(`POST /v1/payments/${paidSecond}/refund`);
      expect(sent).not.toContain(`POST /v1/payments/${paidFirst}/refund`);
      expect(await refundOf()).toMatchObject([{ status: 'processed', amount_minor: pro.price_minor }]);
      const mail = await s.lastMailTo(buyer.email);
      expect(mail.subject).toContain('payment is refunded');
    });

    it('subscription.charged renews (once, redelivered or not, in any order); pending starts the grace period; cancelled ends it', async () => {
      const s = server();
      const buyer = await member(s);
      const pro = await planByCode(s, 'pro-monthly');
      const opened = await openSubscription(s, buyer, pro);
      const id = opened.subscription_id;
      const subscriptionId = opened.subscription.id;

      // The first charge arrives by webhook before the page verifies: the subscription starts anyway.
      const first = subscriptionEvent(
        'subscription.charged',
        { id, paidCount: 1, status: 'active' },
        { id: 'pay_FakeFirst1', amount: pro.price_minor },
      );
      expect((await deliver(s, first)).json()).toEqual({ status: 'processed' });
      const started = await subscriptionRow(s, subscriptionId);
      expect(started).toMatchObject({ status: 'active', cycles: 1, payment_method: 'Card •••• 1111 (Visa)' });
      const license = await licenseRow(s, started.license_id as string);
      expect(license.expires_at).toBe(started.current_period_end);

      // The third cycle reported before the second: the license goes to the third's end and stays there.
      const third = subscriptionEvent(
        'subscription.charged',
        { id, paidCount: 3, status: 'active' },
        { id: 'pay_FakeThird3', amount: pro.price_minor },
      );
      const second = subscriptionEvent(
        'subscription.charged',
        { id, paidCount: 2, status: 'active' },
        { id: 'pay_FakeSecond2', amount: pro.price_minor },
      );
      const thirdId = newEventId();
      await deliver(s, third, thirdId);
      await deliver(s, second);
      expect((await deliver(s, third, thirdId)).json()).toEqual({ status: 'duplicate' });
      // The same charge under another event id (Razorpay's replay after a timeout) is settled already.
      await deliver(s, third);
      const renewed = await subscriptionRow(s, subscriptionId);
      expect(renewed.cycles).toBe(3);
      expect((await licenseRow(s, license.id)).expires_at).toBe(renewed.current_period_end);
      expect((await chargesOf(s, subscriptionId)).map((charge) => charge.status)).toEqual([
        'paid',
        'paid',
        'paid',
      ]);

      // The fourth charge fails: past due with a grace period; Razorpay retries, so no retry of ours.
      const pending = subscriptionEvent(
        'subscription.pending',
        { id, paidCount: 3, status: 'pending' },
        {
          id: 'pay_FakeFailed4',
          amount: pro.price_minor,
          errorDescription: 'Your card was declined',
        },
      );
      expect((await deliver(s, pending)).json()).toEqual({ status: 'processed' });
      expect(await subscriptionRow(s, subscriptionId)).toMatchObject({
        status: 'past_due',
        next_retry_at: null,
      });
      expect((await s.lastMailTo(buyer.email)).subject).toMatch(/^Payment failed/);

      // Cancelled in Razorpay's dashboard: the subscription ends and the license with it.
      const hw = machine();
      expectActivation(await activate(s, buyer.token, license.license_key, hw), 201);
      const endedAt = Math.floor(s.clock.now().getTime() / 1000);
      const cancelled = subscriptionEvent('subscription.cancelled', {
        id,
        paidCount: 3,
        status: 'cancelled',
        endedAt,
      });
      expect((await deliver(s, cancelled)).json()).toEqual({ status: 'processed' });
      expect((await subscriptionRow(s, subscriptionId)).status).toBe('cancelled');
      s.clock.advance(1000);
      expectRefusal(await statusOf(s, license.license_key, hw), 403, 'license_expired', 'expired');
    });

    it('a renewal Razorpay reports reads its subscription twice and its plan once, passing the rows along', async () => {
      const s = server();
      const buyer = await member(s);
      const pro = await planByCode(s, 'pro-monthly');
      const opened = await openSubscription(s, buyer, pro);
      const id = opened.subscription_id;
      const first = subscriptionEvent(
        'subscription.charged',
        { id, paidCount: 1, status: 'active' },
        { id: 'pay_FakeCounted1', amount: pro.price_minor },
      );
      expect((await deliver(s, first)).json()).toEqual({ status: 'processed' });

      const renewal = subscriptionEvent(
        'subscription.charged',
        { id, paidCount: 2, status: 'active' },
        { id: 'pay_FakeCounted2', amount: pro.price_minor },
      );
      recorder!.reset();
      expect((await deliver(s, renewal)).json()).toEqual({ status: 'processed' });
      // Once to find the subscription the report names, once more locked in the settling
      // transaction; the plan once, handed on to the invoice, the receipt and the license's period.
      expect(recorder!.readsOf('subscriptions')).toBe(2);
      expect(recorder!.readsOf('plans')).toBe(1);
      expect((await subscriptionRow(s, opened.subscription.id)).cycles).toBe(2);
    });

    it('a charge in another currency is rejected; a refused Razorpay call is a 502 and changes nothing', async () => {
      const s = server();
      const buyer = await member(s);
      const pro = await planByCode(s, 'pro-monthly');
      const opened = await openSubscription(s, buyer, pro);
      const wrong = subscriptionEvent(
        'subscription.charged',
        { id: opened.subscription_id, paidCount: 1, status: 'active' },
        { id: 'pay_FakeUsd', amount: pro.price_minor, currency: 'USD' },
      );
      expect((await deliver(s, wrong)).json()).toEqual({ status: 'rejected' });
      expect(await subscriptionRow(s, opened.subscription.id)).toMatchObject({
        status: 'pending',
        cycles: 0,
      });

      fake.refuse(true);
      const other = await member(s);
      expectApiError(
        await s.api({
          method: 'POST',
          path: '/subscriptions',
          token: other.token,
          body: { plan_id: pro.id },
        }),
        502,
        'payment_provider_unavailable',
      );
      const mine = await s.app.db
        .selectFrom('subscriptions')
        .select('id')
        .where('user_id', '=', other.id)
        .execute();
      expect(mine).toEqual([]);
    });
    it('a card change: Checkout’s signed answer shows the new card; a forged or another subscription’s answer changes nothing', async () => {
      const s = server();
      const buyer = await member(s);
      const pro = await planByCode(s, 'pro-monthly');
      const opened = await openSubscription(s, buyer, pro);
      const id = opened.subscription.id;
      const path = `/subscriptions/${id}/card-change`;
      // Not started yet: there is no card to change.
      expectApiError(
        await s.api({ method: 'POST', path, token: buyer.token }),
        409,
        'subscription_not_started',
      );
      await charged(s, opened.subscription_id, 1, 'pay_FakeCardFirst', pro.price_minor);

      const checkout = await s.api({ method: 'POST', path, token: buyer.token });
      expect(checkout.statusCode, checkout.body).toBe(200);
      expect(checkout.json()).toEqual({
        key_id: KEY_ID,
        subscription_id: opened.subscription_id,
        prefill: { email: buyer.email },
      });
      const stranger = await member(s);
      expectApiError(
        await s.api({ method: 'POST', path, token: stranger.token }),
        404,
        'subscription_not_found',
      );

      const paymentId = 'pay_FakeCardNew1';
      const signed = signedAnswer(opened.subscription_id, paymentId);
      const forged = {
        ...signed,
        razorpay_signature: hmacHex('not-the-key-secret', `${paymentId}|${opened.subscription_id}`),
      };
      expectApiError(
        await s.api({ method: 'POST', path: `${path}/verify`, token: buyer.token, body: forged }),
        400,
        'invalid_signature',
      );
      expectApiError(
        await s.api({
          method: 'POST',
          path: `${path}/verify`,
          token: buyer.token,
          body: { ...signed, razorpay_subscription_id: 'sub_FakeSomeoneElse' },
        }),
        404,
        'subscription_not_found',
      );
      expect((await subscriptionRow(s, id)).payment_method).toBe('Card •••• 1111 (Visa)');

      const verified = await s.api({
        method: 'POST',
        path: `${path}/verify`,
        token: buyer.token,
        body: signed,
      });
      expect(verified.statusCode, verified.body).toBe(200);
      expect(verified.json()).toMatchObject({ id, payment_method: 'Card •••• 4242 (MasterCard)' });
      expect(fake.requests.at(-1)).toMatchObject({ method: 'GET', url: `/v1/payments/${paymentId}` });

      // Razorpay unreachable: a 502, and the card shown stays the one on record.
      await s.app.db
        .updateTable('subscriptions')
        .set({ payment_method: 'Card •••• 1111 (Visa)' })
        .where('id', '=', id)
        .execute();
      fake.refuse(true);
      expectApiError(
        await s.api({ method: 'POST', path: `${path}/verify`, token: buyer.token, body: signed }),
        502,
        'payment_provider_unavailable',
      );
      expect((await subscriptionRow(s, id)).payment_method).toBe('Card •••• 1111 (Visa)');
    });
    it('a renewal Razorpay has not reported yet keeps the license valid for the grace period, once; the report then moves it on', async () => {
      const s = server();
      const buyer = await member(s);
      const pro = await planByCode(s, 'pro-monthly');
      const opened = await openSubscription(s, buyer, pro);
      const id = opened.subscription.id;
      await charged(s, opened.subscription_id, 1, 'pay_FakeAwaitFirst', pro.price_minor);
      const started = await subscriptionRow(s, id);
      const firstEnd = started.current_period_end as string;
      expect((await licenseRow(s, started.license_id as string)).expires_at).toBe(firstEnd);

      // The period ends; Razorpay charges, but its webhook has not arrived.
      s.clock.advance(Date.parse(firstEnd) - s.clock.now().getTime() + 60_000);
      await s.app.scheduler.runOnce();
      const graceEnd = new Date(Date.parse(firstEnd) + 7 * 86_400_000).toISOString();
      expect(await subscriptionRow(s, id)).toMatchObject({
        status: 'active',
        grace_ends_at: graceEnd,
        cycles: 1,
      });
      const waiting = await licenseRow(s, started.license_id as string);
      expect(waiting).toMatchObject({ status: 'active', expires_at: graceEnd });
      // Run again: nothing more moves.
      await s.app.scheduler.runOnce();
      expect((await subscriptionRow(s, id)).grace_ends_at).toBe(graceEnd);

      await charged(s, opened.subscription_id, 2, 'pay_FakeAwaitSecond', pro.price_minor);
      const renewed = await subscriptionRow(s, id);
      expect(renewed).toMatchObject({ status: 'active', grace_ends_at: null, cycles: 2 });
      expect(Date.parse(renewed.current_period_end as string)).toBeGreaterThan(Date.parse(graceEnd));
      expect((await licenseRow(s, started.license_id as string)).expires_at).toBe(renewed.current_period_end);
    });
    it('a plan change replaces the subscription: the new plan is paid in full through Checkout, takes over the license, and the old one is cancelled at Razorpay with its unused part refunded, once', async () => {
      const s = server();
      s.clock.freeze();
      const buyer = await member(s);
      const monthly = await planByCode(s, 'pro-monthly');
      const yearly = await planByCode(s, 'pro-yearly');
      const opened = await openSubscription(s, buyer, monthly);
      const oldId = opened.subscription.id;
      await charged(s, opened.subscription_id, 1, 'pay_FakeMonthly1', monthly.price_minor);
      const licenseId = (await subscriptionRow(s, oldId)).license_id as string;
      s.clock.advance(5 * 60_000);

      const quoted = await s.api({
        method: 'POST',
        path: `/subscriptions/${oldId}/plan/quote`,
        token: buyer.token,
        body: { plan_id: yearly.id },
      });
      expect(quoted.statusCode, quoted.body).toBe(200);
      const quote = quoted.json<{ credit_minor: number; refund_minor: number; due_now_minor: number }>();
      // The new plan in full now; the unused part of the month goes back to the card instead.
      expect(quote.due_now_minor).toBe(yearly.price_minor);
      expect(quote.credit_minor).toBeGreaterThan(0);
      expect(quote.credit_minor).toBeLessThan(monthly.price_minor);
      expect(quote).toMatchObject({
        refund_minor: quote.credit_minor,
        balance_minor: 0,
        balance_after_minor: 0,
      });

      const before = fake.requests.length;
      const changed = await s.api({
        method: 'POST',
        path: `/subscriptions/${oldId}/plan`,
        token: buyer.token,
        body: { plan_id: yearly.id, expected_due_now_minor: quote.due_now_minor },
      });
      expect(changed.statusCode, changed.body).toBe(202);
      const replacement = subscriptionCheckoutSchema.parse(changed.json());
      expect(replacement).toMatchObject({ amount: yearly.price_minor, sandbox: false, key_id: KEY_ID });
      expect(fake.requests.slice(before).map((request) => `${request.method} ${request.url}`)).toEqual([
        'POST /v1/plans',
        'POST /v1/subscriptions',
      ]);
      // Nothing moves until the new plan is paid.
      expect(await subscriptionRow(s, oldId)).toMatchObject({
        status: 'active',
        closeout_refund_minor: null,
      });
      expect((await licenseRow(s, licenseId)).plan_id).toBe(monthly.id);

      const paymentId = 'pay_FakeYearly1';
      const verified = await s.api({
        method: 'POST',
        path: '/subscriptions/verify',
        token: buyer.token,
        body: signedAnswer(replacement.subscription_id, paymentId),
      });
      expect(verified.statusCode, verified.body).toBe(200);
      const moved = await subscriptionRow(s, replacement.subscription.id);
      // The same license, now on the yearly plan, to the end of the new year.
      expect(moved).toMatchObject({ status: 'active', license_id: licenseId, cycles: 1 });
      expect(await licenseRow(s, licenseId)).toMatchObject({
        plan_id: yearly.id,
        subscription_id: moved.id,
        expires_at: moved.current_period_end,
        status: 'active',
      });
      const old = await subscriptionRow(s, oldId);
      expect(old).toMatchObject({ status: 'cancelled', closeout_refund_minor: quote.credit_minor });
      expect(old.provider_closed_at).not.toBeNull();
      const closing = fake.requests.slice(before + 2).map((request) => `${request.method} ${request.url}`);
      expect(closing).toEqual([
        `POST /v1/subscriptions/${opened.subscription_id}/cancel`,
        'POST /v1/payments/pay_FakeMonthly1/refund',
      ]);
      expect(fake.requests.at(-1)?.body).toMatchObject({ amount: quote.credit_minor });
      const refunds = await s.app.db
        .selectFrom('refunds')
        .selectAll()
        .where('id', '=', `plan-change-${oldId}`)
        .execute();
      expect(refunds).toMatchObject([
        { status: 'processed', amount_minor: quote.credit_minor, actor_id: null },
      ]);
      const creditNotes = await s.app.db
        .selectFrom('invoices')
        .select(['number', 'refund_id'])
        .where('refund_id', '=', `plan-change-${oldId}`)
        .execute();
      expect(creditNotes).toHaveLength(1);

      // Razorpay's reports of both changes, and the scheduler, change nothing more.
      const after = fake.requests.length;
      await charged(s, replacement.subscription_id, 1, paymentId, yearly.price_minor);
      await deliver(
        s,
        subscriptionEvent('subscription.cancelled', {
          id: opened.subscription_id,
          paidCount: 1,
          status: 'cancelled',
          endedAt: Math.floor(s.clock.now().getTime() / 1000),
        }),
      );
      await s.app.scheduler.runOnce();
      expect(fake.requests.length).toBe(after);
      expect((await licenseRow(s, licenseId)).expires_at).toBe(moved.current_period_end);
      expect(await chargesOf(s, moved.id)).toHaveLength(1);
    });

    it('a replaced subscription Razorpay would not close yet is closed by the scheduler later, refunded once', async () => {
      const s = server();
      // The fake API's log is shared by the runs on each database, and this test's payment ids are fixed.
      const start = fake.requests.length;
      s.clock.freeze();
      const buyer = await member(s);
      const monthly = await planByCode(s, 'pro-monthly');
      const yearly = await planByCode(s, 'pro-yearly');
      const opened = await openSubscription(s, buyer, monthly);
      await charged(s, opened.subscription_id, 1, 'pay_FakeLaterMonthly', monthly.price_minor);
      s.clock.advance(5 * 60_000);
      const replacement = subscriptionCheckoutSchema.parse(
        (
          await s.api({
            method: 'POST',
            path: `/subscriptions/${opened.subscription.id}/plan`,
            token: buyer.token,
            body: { plan_id: yearly.id },
          })
        ).json(),
      );
      fake.refuseRefunds(true);
      // The new plan's first charge reported by webhook (the page was closed): it takes over all the same.
      await charged(s, replacement.subscription_id, 1, 'pay_FakeLaterYearly', yearly.price_minor);
      const old = await subscriptionRow(s, opened.subscription.id);
      expect(old.status).toBe('cancelled');
      expect(old.closeout_refund_minor).toBeGreaterThan(0);
      await s.app.scheduler.runOnce();
      // Cancelled at Razorpay, but the refund was refused: not closed yet, and nothing kept reserved.
      expect((await subscriptionRow(s, old.id)).provider_closed_at).toBeNull();
      expect(
        await s.app.db.selectFrom('refunds').selectAll().where('id', '=', `plan-change-${old.id}`).execute(),
      ).toEqual([]);

      fake.refuseRefunds(false);
      await s.app.scheduler.runOnce();
      await s.app.scheduler.runOnce();
      expect((await subscriptionRow(s, old.id)).provider_closed_at).not.toBeNull();
      const refunds = fake.requests
        .slice(start)
        .filter((request) => request.url === '/v1/payments/pay_FakeLaterMonthly/refund');
      // Refused once, then made once; the second cancel was answered "already cancelled" and counted as done.
      expect(refunds).toHaveLength(2);
      expect(
        fake.requests.filter(
          (request) => request.url === `/v1/subscriptions/${opened.subscription_id}/cancel`,
        ),
      ).toHaveLength(2);
      expect(
        await s.app.db
          .selectFrom('refunds')
          .select(['status', 'amount_minor'])
          .where('id', '=', `plan-change-${old.id}`)
          .execute(),
      ).toEqual([{ status: 'processed', amount_minor: old.closeout_refund_minor }]);
    });
    it('a renewal charged while a plan change is being paid: the whole renewed period is refunded, not the smaller quote', async () => {
      const s = server();
      s.clock.freeze();
      const buyer = await member(s);
      const monthly = await planByCode(s, 'pro-monthly');
      const yearly = await planByCode(s, 'pro-yearly');
      const opened = await openSubscription(s, buyer, monthly);
      await charged(s, opened.subscription_id, 1, 'pay_FakeRaceFirst', monthly.price_minor);
      const first = await subscriptionRow(s, opened.subscription.id);
      // Near the end of the month: little is left of it.
      s.clock.advance(Date.parse(first.current_period_end as string) - s.clock.now().getTime() - 10 * 60_000);
      const { token } = await signInAgain(s, buyer);
      const quote = (
        await s.api({
          method: 'POST',
          path: `/subscriptions/${opened.subscription.id}/plan/quote`,
          token,
          body: { plan_id: yearly.id },
        })
      ).json<{ refund_minor: number }>();
      expect(quote.refund_minor).toBeLessThan(monthly.price_minor / 100);
      const replacement = subscriptionCheckoutSchema.parse(
        (
          await s.api({
            method: 'POST',
            path: `/subscriptions/${opened.subscription.id}/plan`,
            token,
            body: { plan_id: yearly.id },
          })
        ).json(),
      );
      // Razorpay renews the old one before the new plan is paid.
      s.clock.advance(20 * 60_000);
      await charged(s, opened.subscription_id, 2, 'pay_FakeRaceSecond', monthly.price_minor);
      await charged(s, replacement.subscription_id, 1, 'pay_FakeRaceYearly', yearly.price_minor);
      const old = await subscriptionRow(s, opened.subscription.id);
      expect(old).toMatchObject({ status: 'cancelled', cycles: 2 });
      expect(old.closeout_refund_minor).toBeGreaterThan(monthly.price_minor - monthly.price_minor / 100);
      await s.app.scheduler.runOnce();
      const refund = fake.requests.filter(
        (request) => request.url === '/v1/payments/pay_FakeRaceSecond/refund',
      );
      expect(refund.at(-1)?.body).toMatchObject({ amount: old.closeout_refund_minor });
    });
    it('a cancellation at period end stays ours until a day before the end, so it can be resumed; then Razorpay is told once and the period runs out', async () => {
      const s = server();
      s.clock.freeze();
      const buyer = await member(s);
      const pro = await planByCode(s, 'pro-monthly');
      const opened = await openSubscription(s, buyer, pro);
      const id = opened.subscription.id;
      await charged(s, opened.subscription_id, 1, 'pay_FakeResumeFirst', pro.price_minor);
      const { current_period_end: periodEnd, license_id: licenseId } = await subscriptionRow(s, id);
      const cancelAtRazorpay = () =>
        fake.requests.filter(
          (request) => request.url === `/v1/subscriptions/${opened.subscription_id}/cancel`,
        );
      const cancel = (token: string) =>
        s.api({ method: 'POST', path: `/subscriptions/${id}/cancel`, token, body: { at: 'period_end' } });
      const resume = (token: string) => s.api({ method: 'POST', path: `/subscriptions/${id}/resume`, token });

      expect((await cancel(buyer.token)).statusCode).toBe(200);
      expect(await subscriptionRow(s, id)).toMatchObject({
        cancel_at_period_end: 1,
        provider_closed_at: null,
      });
      expect(cancelAtRazorpay()).toEqual([]);
      const resumed = await resume(buyer.token);
      expect(resumed.statusCode, resumed.body).toBe(200);
      expect(resumed.json()).toMatchObject({ cancel_at_period_end: false, status: 'active' });
      expect(cancelAtRazorpay()).toEqual([]);

      // Cancelled again; a day before the end the scheduler tells Razorpay, once.
      expect((await cancel(buyer.token)).statusCode).toBe(200);
      s.clock.advance(Date.parse(periodEnd as string) - s.clock.now().getTime() - 23 * 3_600_000);
      const { token } = await signInAgain(s, buyer);
      await s.app.scheduler.runOnce();
      await s.app.scheduler.runOnce();
      expect(cancelAtRazorpay()).toHaveLength(1);
      const stopped = await subscriptionRow(s, id);
      expect(stopped).toMatchObject({ status: 'active', cancel_at_period_end: 1 });
      expect(stopped.provider_closed_at).not.toBeNull();
      expectApiError(await resume(token), 409, 'resume_unavailable');
      // Razorpay's report of that stop ends nothing early.
      await deliver(
        s,
        subscriptionEvent('subscription.cancelled', {
          id: opened.subscription_id,
          paidCount: 1,
          status: 'cancelled',
          endedAt: Math.floor(s.clock.now().getTime() / 1000),
        }),
      );
      expect((await subscriptionRow(s, id)).status).toBe('active');
      expect((await licenseRow(s, licenseId as string)).expires_at).toBe(periodEnd);

      s.clock.advance(24 * 3_600_000);
      await s.app.scheduler.runOnce();
      expect(await subscriptionRow(s, id)).toMatchObject({ status: 'cancelled', ended_at: periodEnd });
      expect(cancelAtRazorpay()).toHaveLength(1);
    });
    it('a first-charge-only coupon on Razorpay: the first period is paid upfront at authorisation, and Razorpay’s own charges start a period later at the full price', async () => {
      const s = server();
      s.clock.freeze();
      const admin = await member(s, 'admin');
      const buyer = await member(s);
      const pro = await planByCode(s, 'pro-monthly');
      const code = `HALF${randomBytes(3).toString('hex').toUpperCase()}`;
      const made = await s.api({
        method: 'POST',
        path: '/admin/coupons',
        token: admin.token,
        body: { code, percent_off: 50, duration: 'once' },
      });
      expect(made.statusCode, made.body).toBe(201);
      const half = Math.ceil(pro.price_minor / 2);
      const before = fake.requests.length;
      const opened = await s.api({
        method: 'POST',
        path: '/subscriptions',
        token: buyer.token,
        body: { plan_id: pro.id, coupon_code: code },
      });
      expect(opened.statusCode, opened.body).toBe(201);
      const checkout = subscriptionCheckoutSchema.parse(opened.json());
      expect(checkout.amount).toBe(half);
      const created = fake.requests.slice(before).find((request) => request.url === '/v1/subscriptions');
      expect(created?.body).toMatchObject({
        addons: [{ item: { amount: half, currency: 'INR' } }],
      });
      // The page was closed: Razorpay's `authenticated` report carries the upfront payment.
      await deliver(
        s,
        subscriptionEvent(
          'subscription.authenticated',
          { id: checkout.subscription_id, paidCount: 0, status: 'authenticated' },
          { id: 'pay_FakeUpfront', amount: half },
        ),
      );
      const started = await subscriptionRow(s, checkout.subscription.id);
      expect(started).toMatchObject({ status: 'active', cycles: 1, provider_cycle_offset: 1 });
      expect((await licenseRow(s, started.license_id as string)).expires_at).toBe(started.current_period_end);
      // Razorpay's own charges start when this first period ends.
      expect(Number(created?.body?.['start_at'])).toBe(
        Math.floor(Date.parse(started.current_period_end as string) / 1000),
      );

      // Razorpay's first charge (its paid_count 1) is our second period, at the full price.
      s.clock.advance(Date.parse(started.current_period_end as string) - s.clock.now().getTime() + 60_000);
      await charged(s, checkout.subscription_id, 1, 'pay_FakeFullSecond', pro.price_minor);
      const renewed = await subscriptionRow(s, checkout.subscription.id);
      expect(renewed.cycles).toBe(2);
      expect(
        (await chargesOf(s, renewed.id)).map((charge) => Number(charge.amount_minor)).sort((a, b) => a - b),
      ).toEqual([half, pro.price_minor].sort((a, b) => a - b));
      expect((await licenseRow(s, started.license_id as string)).expires_at).toBe(renewed.current_period_end);

      // A plan change afterwards: the first-charge coupon is spent, so the new plan is paid in full.
      const { token } = await signInAgain(s, buyer);
      const yearly = await planByCode(s, 'pro-yearly');
      const changed = await s.api({
        method: 'POST',
        path: `/subscriptions/${renewed.id}/plan`,
        token,
        body: { plan_id: yearly.id },
      });
      expect(changed.statusCode, changed.body).toBe(202);
      const replacement = subscriptionCheckoutSchema.parse(changed.json());
      expect(replacement.amount).toBe(yearly.price_minor);
      expect((await subscriptionRow(s, replacement.subscription.id)).coupon_id).toBeNull();
    });
    it('Razorpay’s payment.* and invoice.* reports of a subscription’s charge are acknowledged and left to its subscription.* report (documented formats)', async () => {
      const s = server();
      const now = Math.floor(Date.now() / 1000);
      const payment = {
        id: 'pay_FakeInvoiceCharge',
        entity: 'payment',
        amount: 99_900,
        currency: 'INR',
        status: 'captured',
        order_id: 'order_FakeRazorpayMade',
        invoice_id: 'inv_FakeSubscriptionCycle',
        method: 'card',
        captured: true,
        created_at: now,
      };
      const signed = (event: string, payload: Record<string, unknown>) => {
        const body = JSON.stringify({
          entity: 'event',
          account_id: 'acc_FakeAccount01',
          event,
          contains: Object.keys(payload),
          payload,
          created_at: now,
        });
        return { body, signature: hmacHex(WEBHOOK_SECRET, body) };
      };
      for (const [event, payload] of [
        ['payment.captured', { payment: { entity: payment } }],
        ['payment.failed', { payment: { entity: { ...payment, status: 'failed', captured: false } } }],
        [
          'invoice.paid',
          {
            payment: { entity: payment },
            invoice: {
              entity: {
                id: 'inv_FakeSubscriptionCycle',
                entity: 'invoice',
                subscription_id: 'sub_FakeElsewhere',
                status: 'paid',
                amount: 99_900,
                currency: 'INR',
              },
            },
          },
        ],
      ] as const) {
        const response = await deliver(s, signed(event, payload));
        expect(response.json(), event).toEqual({ status: 'ignored' });
      }
      // None was taken for a rejected (mismatched or unknown) payment.
      const rejected = await s.app.db
        .selectFrom('security_events')
        .select('details')
        .where('type', '=', 'payment_webhook_rejected')
        .execute();
      expect(rejected.filter((row) => row.details?.includes('pay_FakeInvoiceCharge'))).toEqual([]);
    });

    it('pausing calls Razorpay’s pause, resuming its resume (fake Razorpay API); a refusal there pauses nothing here', async () => {
      const s = server();
      const buyer = await member(s);
      const pro = await planByCode(s, 'pro-monthly');
      const checkout = await openSubscription(s, buyer, pro);
      const verified = await s.api({
        method: 'POST',
        path: '/subscriptions/verify',
        token: buyer.token,
        body: signedAnswer(checkout.subscription_id, `pay_Fake${randomBytes(5).toString('hex')}`),
      });
      expect(verified.statusCode, verified.body).toBe(200);
      const id = checkout.subscription.id;
      const pause = () =>
        s.api({
          method: 'POST',
          path: `/subscriptions/${id}/pause`,
          token: buyer.token,
          body: { periods: 1 },
        });

      fake.refuse(true);
      expect((await pause()).statusCode).toBe(502);
      fake.refuse(false);
      expect(await subscriptionRow(s, id)).toMatchObject({ status: 'active', pause_resumes_at: null });

      const before = fake.requests.length;
      const paused = await pause();
      expect(paused.statusCode, paused.body).toBe(200);
      expect(fake.requests.slice(before).map((request) => `${request.method} ${request.url}`)).toEqual([
        `POST /v1/subscriptions/${checkout.subscription_id}/pause`,
      ]);
      expect(fake.requests.at(-1)?.body).toEqual({ pause_at: 'now' });

      const resumed = await s.api({
        method: 'POST',
        path: `/subscriptions/${id}/unpause`,
        token: buyer.token,
      });
      expect(resumed.statusCode, resumed.body).toBe(200);
      expect(fake.requests.at(-1)).toMatchObject({
        method: 'POST',
        url: `/v1/subscriptions/${checkout.subscription_id}/resume`,
        body: { resume_at: 'now' },
      });
      expect(await subscriptionRow(s, id)).toMatchObject({ status: 'active', pause_resumes_at: null });
    });
  },
  razorpayServer,
);
