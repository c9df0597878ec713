import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { utc } from '../../../src/shared/dates.js';
import {
  subscriptionActivationSchema,
  subscriptionCheckoutSchema,
} from '../../../src/shared/api/subscriptions.js';
import type { Config } from '../../../src/server/platform/config.js';
import { createRazorpayProvider } from '../../../src/server/billing/payments/razorpay-provider.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { DAY_MS, licenseSuiteOptions, type Member, member, signInAgain } from '../helpers/license-helpers.js';
import {
  deliver,
  fakeRazorpaySubscriptionsApi,
  KEY_ID,
  KEY_SECRET,
  signedAnswer,
  subscriptionEvent,
  WEBHOOK_SECRET,
} from '../helpers/razorpay-subscriptions-fake.js';
import { chargesOf, later, licenseRow, subscriptionRow } from '../helpers/subscription-helpers.js';
import { offerTrial, TRIAL_DAYS } from '../helpers/trial-helpers.js';

const fake = fakeRazorpaySubscriptionsApi();
let fakeUrl: string | undefined;
beforeAll(async () => {
  fakeUrl = await fake.start();
});
afterAll(async () => fake.stop());

const razorpayServer = {
  env: {
    ...licenseSuiteOptions.env,
    RAZORPAY_KEY_ID: KEY_ID,
    RAZORPAY_KEY_SECRET: KEY_SECRET,
    RAZORPAY_WEBHOOK_SECRET: WEBHOOK_SECRET,
  },
  appOverrides: (config: Config) => {
    const settings = config.payments.razorpay;
    if (!settings || !fakeUrl) throw new Error('the Razorpay keys or the fake API are missing');
    return { paymentProvider: createRazorpayProvider({ ...settings, apiUrl: fakeUrl }) };
  },
};

/** Opens a Razorpay subscription with the plan's trial: what Checkout would open with, and what was sent. */
async function openTrial(s: TestServer, buyer: Member, planId: string) {
  const before = fake.requests.length;
  const opened = await s.api({
    method: 'POST',
    path: '/subscriptions',
    token: buyer.token,
    body: { plan_id: planId, trial: true },
  });
  expect(opened.statusCode, opened.body).toBe(201);
  return { checkout: subscriptionCheckoutSchema.parse(opened.json()), sent: fake.requests.slice(before) };
}

/** Checkout authorised the card (no charge) and the page verified it: the trial's answer. */
async function verifyTrial(s: TestServer, buyer: Member, subscriptionId: string) {
  const verified = await s.api({
    method: 'POST',
    path: '/subscriptions/verify',
    token: buyer.token,
    body: signedAnswer(subscriptionId, `pay_FakeAuth${Math.random().toString(36).slice(2, 10)}`),
  });
  expect(verified.statusCode, verified.body).toBe(200);
  return subscriptionActivationSchema.parse(verified.json());
}

const charged = (s: TestServer, subscriptionId: string, paymentId: string, amount: number) =>
  deliver(
    s,
    subscriptionEvent(
      'subscription.charged',
      { id: subscriptionId, paidCount: 1, status: 'active' },
      { id: paymentId, amount },
    ),
  );

describeOnEveryDatabase(
  'card trials with Razorpay (fake Razorpay API; webhook payloads in Razorpay’s documented format)',
  (server) => {
    beforeEach(() => {
      fake.refuse(false);
      fake.refuseRefunds(false);
    });

    it('fake Razorpay: the subscription is created with start_at at the trial’s end and no add-on; Checkout starts the trial; subscription.charged at the end converts it and issues the invoice', async () => {
      const s = server();
      const plan = await offerTrial(s);
      const ann = await member(s);
      s.clock.freeze();
      const trialEnd = utc(s.clock.now()).add(TRIAL_DAYS, 'day').toISOString();
      const { checkout, sent } = await openTrial(s, ann, plan.id);
      expect(checkout).toMatchObject({ amount: 0, sandbox: false });
      const created = sent.find((request) => request.url === '/v1/subscriptions');
      expect(created?.body).toMatchObject({ start_at: Math.floor(Date.parse(trialEnd) / 1000) });
      expect(created?.body).not.toHaveProperty('addons');

      const started = await verifyTrial(s, ann, checkout.subscription_id);
      expect(started.charge).toBeNull();
      expect(started.license).toMatchObject({ trial: { ends_at: trialEnd, source: 'card' } });
      expect(await chargesOf(s, checkout.subscription.id)).toEqual([]);

      // The end: Razorpay charges and reports it some minutes later. Until then the trial has not
      // ended unpaid: no "has ended" mail.
      s.clock.advance(Date.parse(trialEnd) - s.clock.now().getTime() + 60_000);
      await s.app.scheduler.runOnce();
      expect(
        (await s.outbox()).filter((mail) => mail.to.includes(ann.email) && /has ended$/.test(mail.subject)),
      ).toEqual([]);

      const paid = await charged(s, checkout.subscription_id, 'pay_FakeTrialFirst1', plan.price_minor);
      expect(paid.json()).toEqual({ status: 'processed' });
      const row = await subscriptionRow(s, checkout.subscription.id);
      expect(row).toMatchObject({
        status: 'active',
        cycles: 1,
        license_id: started.license.license_id,
        current_period_start: trialEnd,
        current_period_end: utc(trialEnd).add(1, 'month').toISOString(),
      });
      const license = await licenseRow(s, started.license.license_id);
      expect(license).toMatchObject({ trial_ends_at: null, expires_at: row.current_period_end });
      const charges = await chargesOf(s, checkout.subscription.id);
      expect(charges.map((charge) => charge.status)).toEqual(['paid']);
      const invoices = await s.app.db
        .selectFrom('invoices')
        .selectAll()
        .where('payment_id', '=', charges[0]?.id ?? '')
        .execute();
      expect(invoices).toHaveLength(1);
    });

    it('fake Razorpay: subscription.authenticated starts the trial when the page never came back; the verify afterwards answers the same trial', async () => {
      const s = server();
      const plan = await offerTrial(s);
      const ann = await member(s);
      const { checkout } = await openTrial(s, ann, plan.id);
      const authenticated = subscriptionEvent('subscription.authenticated', {
        id: checkout.subscription_id,
        paidCount: 0,
        status: 'authenticated',
      });
      expect((await deliver(s, authenticated)).json()).toEqual({ status: 'processed' });
      const row = await subscriptionRow(s, checkout.subscription.id);
      expect(row.status).toBe('active');
      const trials = await s.app.db
        .selectFrom('license_trials')
        .selectAll()
        .where('user_id', '=', ann.id)
        .execute();
      expect(trials).toMatchObject([{ source: 'card' }]);
      const verified = await verifyTrial(s, ann, checkout.subscription_id);
      expect(verified.license.license_id).toBe(trials[0]?.license_id);
    });

    it('fake Razorpay: canceled during the trial → canceled at Razorpay at once; a subscription.charged for it afterwards grants nothing and is refunded in full through Razorpay', async () => {
      const s = server();
      const plan = await offerTrial(s);
      const ann = await member(s);
      const { checkout } = await openTrial(s, ann, plan.id);
      const started = await verifyTrial(s, ann, checkout.subscription_id);

      s.clock.advance(TRIAL_DAYS * DAY_MS - 1000);
      await signInAgain(s, ann);
      const before = fake.requests.length;
      const cancelled = await s.api({
        method: 'POST',
        path: `/subscriptions/${checkout.subscription.id}/cancel`,
        token: ann.token,
        body: {},
      });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect(cancelled.json()).toMatchObject({ status: 'cancelled', next_charge: null });
      const told = fake.requests.slice(before);
      expect(told.map((request) => `${request.method} ${request.url}`)).toEqual([
        `POST /v1/subscriptions/${checkout.subscription_id}/cancel`,
      ]);
      // At once, not at the cycle's end (the SDK leaves the flag out when it is 0).
      expect(told[0]?.body?.['cancel_at_cycle_end'] ?? 0).toBe(0);

      // Razorpay charged at the trial's end all the same (the cancellation crossed its charge).
      await later(s, ann, 2000);
      const report = await charged(s, checkout.subscription_id, 'pay_FakeAfterCancel1', plan.price_minor);
      expect(report.json()).toEqual({ status: 'processed' });
      const row = await subscriptionRow(s, checkout.subscription.id);
      expect(row).toMatchObject({ status: 'cancelled', cycles: 0, license_id: null });
      const license = await licenseRow(s, started.license.license_id);
      expect(license.trial_ends_at).toBe(started.license.trial?.ends_at);
      const [payment] = await chargesOf(s, checkout.subscription.id);
      expect(payment).toMatchObject({ status: 'paid', provider_payment_id: 'pay_FakeAfterCancel1' });
      const invoices = await s.app.db
        .selectFrom('invoices')
        .selectAll()
        .where('payment_id', '=', payment?.id ?? '')
        .execute();
      expect(invoices).toHaveLength(1);
      const refundOf = () =>
        s.app.db
          .selectFrom('refunds')
          .selectAll()
          .where('payment_id', '=', payment?.id ?? '')
          .execute();
      expect(await refundOf()).toMatchObject([{ status: 'pending', amount_minor: plan.price_minor }]);
      const asked = fake.requests.length;
      await later(s, ann, 11 * 60_000);
      await s.app.scheduler.runOnce();
      expect(fake.requests.slice(asked).map((request) => `${request.method} ${request.url}`)).toContain(
        'POST /v1/payments/pay_FakeAfterCancel1/refund',
      );
      expect(await refundOf()).toMatchObject([{ status: 'processed', amount_minor: plan.price_minor }]);
      // The report again changes nothing.
      await charged(s, checkout.subscription_id, 'pay_FakeAfterCancel1', plan.price_minor);
      expect(await chargesOf(s, checkout.subscription.id)).toHaveLength(1);
      expect(await refundOf()).toHaveLength(1);
      // The license was never paid for: past the trial's end it reads trial_expired.
      const view = await s.api({ path: `/licenses/${license.id}`, token: ann.token });
      expect(view.json()).toMatchObject({ status: 'trial_expired', trial: { source: 'card', days_left: 0 } });
    });

    it('fake Razorpay: the first charge reported just before the cancel: the cancel is an ordinary one of a paid subscription', async () => {
      const s = server();
      const plan = await offerTrial(s);
      const ann = await member(s);
      const { checkout } = await openTrial(s, ann, plan.id);
      await verifyTrial(s, ann, checkout.subscription_id);
      await later(s, ann, TRIAL_DAYS * DAY_MS + 60_000);
      await charged(s, checkout.subscription_id, 'pay_FakeBeforeCancel1', plan.price_minor);
      const cancelled = await s.api({
        method: 'POST',
        path: `/subscriptions/${checkout.subscription.id}/cancel`,
        token: ann.token,
        body: {},
      });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect(cancelled.json()).toMatchObject({ status: 'active', cancel_at_period_end: true });
      const [payment] = await chargesOf(s, checkout.subscription.id);
      const refunds = await s.app.db
        .selectFrom('refunds')
        .selectAll()
        .where('payment_id', '=', payment?.id ?? '')
        .execute();
      expect(refunds).toEqual([]);
    });
  },
  razorpayServer,
);
