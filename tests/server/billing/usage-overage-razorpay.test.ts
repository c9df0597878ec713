import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { InvoiceLine } from '../../../src/shared/api/invoices.js';
import { licenseUsageSchema } from '../../../src/shared/api/licenses.js';
import { subscriptionCheckoutSchema } from '../../../src/shared/api/subscriptions.js';
import { utc } from '../../../src/shared/dates.js';
import type { Config } from '../../../src/server/platform/config.js';
import { createRazorpayProvider } from '../../../src/server/billing/payments/razorpay-provider.js';
import {
  describeOnEveryDatabase,
  type TestServer,
  type TestServerOptions,
} from '../../support/test-server.js';
import { createPlan, type Member, member, signInAgain } from '../helpers/license-helpers.js';
import { newEventId } from '../helpers/payment-helpers.js';
import {
  deliver,
  fakeRazorpaySubscriptionsApi,
  KEY_ID,
  KEY_SECRET,
  subscriptionEvent,
  WEBHOOK_SECRET,
} from '../helpers/razorpay-subscriptions-fake.js';
import { chargesOf, subscriptionRow } from '../helpers/subscription-helpers.js';

const fake = fakeRazorpaySubscriptionsApi();
let fakeUrl: string | undefined;
beforeAll(async () => {
  fakeUrl = await fake.start();
});
afterAll(async () => fake.stop());

const razorpayServer: TestServerOptions = {
  env: { RAZORPAY_KEY_ID: KEY_ID, RAZORPAY_KEY_SECRET: KEY_SECRET, RAZORPAY_WEBHOOK_SECRET: WEBHOOK_SECRET },
  appOverrides: (config: Config) => {
    const settings = config.payments.razorpay;
    if (!settings || !fakeUrl) throw new Error('the Razorpay keys or the fake API are missing');
    return { paymentProvider: createRazorpayProvider({ ...settings, apiUrl: fakeUrl }) };
  },
};

const PLAN_PRICE = 99_900;

/** Freezes the clock at 10:00 UTC on day `day` of the month after the clock's. */
async function nextMonth(s: TestServer, day: number, ...who: Member[]): Promise<void> {
  s.clock.freeze();
  const target = utc(s.clock.now())
    .startOf('month')
    .add(1, 'month')
    .add(day - 1, 'day')
    .add(10, 'hour');
  s.clock.advance(target.valueOf() - s.clock.now().getTime());
  for (const person of who) await signInAgain(s, person);
}

let sequence = 0;
async function use(s: TestServer, who: Member, licenseId: string, amount: number, occurredAt?: string) {
  const response = await s.api({
    method: 'POST',
    path: `/licenses/${licenseId}/usage/events`,
    token: who.token,
    body: {
      events: [
        {
          id: `rzp-overage-${++sequence}`,
          feature: 'ai_chat',
          amount,
          ...(occurredAt ? { occurred_at: occurredAt } : {}),
        },
      ],
    },
  });
  expect(response.statusCode, response.body).toBe(200);
}

const charged = (
  s: TestServer,
  subscriptionId: string,
  paidCount: number,
  paymentId: string,
  amount: number,
) =>
  subscriptionEvent(
    'subscription.charged',
    { id: subscriptionId, paidCount, status: 'active' },
    { id: paymentId, amount },
  );

const addonRequests = (providerSubscriptionId: string) =>
  fake.requests.filter(
    (request) =>
      request.method === 'POST' && request.url === `/v1/subscriptions/${providerSubscriptionId}/addons`,
  );

const overageRows = (s: TestServer, licenseId: string) =>
  s.app.db
    .selectFrom('usage_overage_charges')
    .selectAll()
    .where('license_id', '=', licenseId)
    .orderBy('created_at')
    .execute();

const monthWords = (moment: string) =>
  new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(moment),
  );

describeOnEveryDatabase(
  'usage: overage billed on Razorpay as add-ons (fake Razorpay API; webhook payloads in Razorpay’s documented format)',
  (server) => {
    beforeEach(() => fake.refuse(false));

    it('an ended month’s overage becomes one add-on, pending until the renewal’s charge settles it; replays and reruns add nothing', async () => {
      const s = server();
      const overage = { policy: 'bill' as const, price_minor: 50, per_units: 100, cap: null };
      const plan = await createPlan(s, {
        price: PLAN_PRICE,
        interval: 'month',
        features: { ai_chat: 1000 },
        overage: { ai_chat: overage },
      });
      const buyer = await member(s);
      await nextMonth(s, 10, buyer);
      const month = s.clock.now().toISOString();
      const opened = await s.api({
        method: 'POST',
        path: '/subscriptions',
        token: buyer.token,
        body: { plan_id: plan.id },
      });
      expect(opened.statusCode, opened.body).toBe(201);
      const checkout = subscriptionCheckoutSchema.parse(opened.json());
      const providerId = checkout.subscription_id;
      await deliver(s, charged(s, providerId, 1, 'pay_FakeOverage1', PLAN_PRICE));
      const started = await subscriptionRow(s, checkout.subscription.id);
      const licenseId = started.license_id as string;
      await use(s, buyer, licenseId, 2234);

      // The month is over: the scheduler puts its overage on the subscription, once however often it runs.
      await nextMonth(s, 2, buyer);
      expect(await s.app.scheduler.runOnce()).toBe(true);
      expect(await s.app.scheduler.runOnce()).toBe(true);
      const sent = addonRequests(providerId);
      expect(sent).toHaveLength(1);
      const [pending] = await overageRows(s, licenseId);
      expect(sent[0]?.body).toEqual({
        item: {
          name: 'AI chat over the allowance',
          description: `AI chat over the allowance, ${monthWords(month)}: 1,234 messages × ₹0.50 per 100 (ref ${pending?.id})`,
          amount: 650,
          currency: 'INR',
        },
        quantity: 1,
      });
      expect(pending).toMatchObject({ status: 'pending', units: 1234, amount_minor: 650, payment_id: null });
      expect(pending?.provider_addon_id).toMatch(/^ao_Fake/);
      const report = await s.api({ method: 'GET', path: `/licenses/${licenseId}/usage`, token: buyer.token });
      expect(licenseUsageSchema.parse(report.json()).overage[0]).toMatchObject({
        owed_units: 1234,
        owed_minor: 650,
        billable: true,
        charged_on: started.current_period_end,
      });

      // Razorpay charges the renewal with the add-on; a replay of that report changes nothing.
      const renewal = charged(s, providerId, 2, 'pay_FakeOverage2', PLAN_PRICE + 650);
      expect((await deliver(s, renewal)).json()).toEqual({ status: 'processed' });
      expect((await deliver(s, renewal, newEventId())).json()).toEqual({ status: 'processed' });
      const charges = await chargesOf(s, checkout.subscription.id);
      expect(charges).toHaveLength(2);
      const charge = charges.at(-1)!;
      const invoice = await s.app.db
        .selectFrom('invoices')
        .selectAll()
        .where('payment_id', '=', charge.id)
        .executeTakeFirstOrThrow();
      const lines = JSON.parse(invoice.lines) as InvoiceLine[];
      expect(lines.map((line) => [line.kind, line.amount])).toEqual([
        ['item', PLAN_PRICE],
        ['item', 650],
      ]);
      expect(lines[1]?.description).toBe(
        `AI chat over the allowance, ${monthWords(month)}: 1,234 messages × ₹0.50 per 100`,
      );
      expect(await overageRows(s, licenseId)).toMatchObject([
        { status: 'billed', payment_id: charge.id, invoice_id: invoice.id, units: 1234 },
      ]);

      // Use uploaded late into the billed month: Razorpay refuses the add-on once (kept pending
      // without one, asked again next run), then takes the difference.
      await use(s, buyer, licenseId, 150, utc(month).add(3, 'day').toISOString());
      fake.refuse(true);
      expect(await s.app.scheduler.runOnce()).toBe(true);
      expect((await overageRows(s, licenseId)).map((row) => [row.status, row.provider_addon_id])).toEqual([
        ['billed', pending?.provider_addon_id],
        ['pending', null],
      ]);
      fake.refuse(false);
      expect(await s.app.scheduler.runOnce()).toBe(true);
      expect(addonRequests(providerId).at(-1)?.body).toMatchObject({
        item: {
          amount: 50,
          description: expect.stringMatching(/: 150 messages × ₹0.50 per 100 \(ref [\w-]+\)$/),
        },
      });
      expect((await overageRows(s, licenseId)).map((row) => [row.status, row.units])).toEqual([
        ['billed', 1234],
        ['pending', 150],
      ]);

      // More of that month arrives before the renewal: a second add-on of the same month. Both go
      // on the one renewal, as one line of the month.
      await use(s, buyer, licenseId, 200, utc(month).add(4, 'day').toISOString());
      expect(await s.app.scheduler.runOnce()).toBe(true);
      expect(addonRequests(providerId).at(-1)?.body).toMatchObject({ item: { amount: 100 } });
      const third = charged(s, providerId, 3, 'pay_FakeOverage3', PLAN_PRICE + 150);
      expect((await deliver(s, third)).json()).toEqual({ status: 'processed' });
      const thirdCharge = (await chargesOf(s, checkout.subscription.id)).at(-1)!;
      const thirdInvoice = await s.app.db
        .selectFrom('invoices')
        .select('lines')
        .where('payment_id', '=', thirdCharge.id)
        .executeTakeFirstOrThrow();
      expect((JSON.parse(thirdInvoice.lines) as InvoiceLine[]).slice(1)).toMatchObject([
        {
          description: `AI chat over the allowance, ${monthWords(month)}: 350 messages × ₹0.50 per 100`,
          amount: 150,
        },
      ]);
      expect((await overageRows(s, licenseId)).map((row) => [row.status, row.payment_id])).toEqual([
        ['billed', charge.id],
        ['billed', thirdCharge.id],
        ['billed', thirdCharge.id],
      ]);
    });

    describe('never billed twice (fake Razorpay API)', () => {
      afterEach(() => fake.useClock());

      /** A renewing Razorpay subscription whose ended month used 1,234 past a 1,000 allowance. */
      async function overMonthEnded(s: TestServer) {
        fake.useClock(() => s.clock.now());
        const overage = { policy: 'bill' as const, price_minor: 50, per_units: 100, cap: null };
        const plan = await createPlan(s, {
          price: PLAN_PRICE,
          interval: 'month',
          features: { ai_chat: 1000 },
          overage: { ai_chat: overage },
        });
        const buyer = await member(s);
        await nextMonth(s, 10, buyer);
        const opened = await s.api({
          method: 'POST',
          path: '/subscriptions',
          token: buyer.token,
          body: { plan_id: plan.id },
        });
        expect(opened.statusCode, opened.body).toBe(201);
        const checkout = subscriptionCheckoutSchema.parse(opened.json());
        await deliver(s, charged(s, checkout.subscription_id, 1, `pay_FakeTwice${++sequence}`, PLAN_PRICE));
        const licenseId = (await subscriptionRow(s, checkout.subscription.id)).license_id as string;
        await use(s, buyer, licenseId, 2234);
        await nextMonth(s, 2, buyer);
        return { providerId: checkout.subscription_id, subscriptionId: checkout.subscription.id, licenseId };
      }

      const addonsOf = (providerId: string) =>
        fake.addons.filter((addon) => addon['subscription_id'] === providerId);

      it('the add-on is made but its answer is lost (as if the server stopped before noting it): the next run finds it by its reference and makes none', async () => {
        const s = server();
        const { providerId, subscriptionId, licenseId } = await overMonthEnded(s);
        fake.loseNextAddonAnswer();
        expect(await s.app.scheduler.runOnce()).toBe(true);
        // Razorpay holds the add-on; the row is kept pending with none noted, not dropped.
        expect(addonsOf(providerId)).toHaveLength(1);
        const [kept] = await overageRows(s, licenseId);
        expect(kept).toMatchObject({ status: 'pending', units: 1234, provider_addon_id: null });
        expect((addonsOf(providerId)[0]?.['item'] as { description: string }).description).toContain(
          `(ref ${kept?.id})`,
        );

        expect(await s.app.scheduler.runOnce()).toBe(true);
        expect(await s.app.scheduler.runOnce()).toBe(true);
        expect(addonRequests(providerId)).toHaveLength(1);
        expect(addonsOf(providerId)).toHaveLength(1);
        expect(await overageRows(s, licenseId)).toEqual([
          expect.objectContaining({ id: kept?.id, provider_addon_id: addonsOf(providerId)[0]?.['id'] }),
        ]);

        // The renewal carries the one add-on: one overage line, billed once.
        await deliver(s, charged(s, providerId, 2, `pay_FakeTwice${++sequence}`, PLAN_PRICE + 650));
        const charge = (await chargesOf(s, subscriptionId)).at(-1)!;
        expect(await overageRows(s, licenseId)).toMatchObject([
          { status: 'billed', payment_id: charge.id, amount_minor: 650 },
        ]);
      });

      it('Razorpay down: the lookup fails and nothing is asked; an add-on truly refused is asked for once, after a lookup finds none', async () => {
        const s = server();
        const { providerId, licenseId } = await overMonthEnded(s);
        const from = fake.requests.length;
        fake.refuse(true);
        expect(await s.app.scheduler.runOnce()).toBe(true);
        expect(await s.app.scheduler.runOnce()).toBe(true);
        fake.refuse(false);
        // Two refused asks at most: the first run's add-on, then the second run's lookup.
        const tried = fake.requests
          .slice(from)
          .filter(
            (request) =>
              request.url.startsWith('/v1/addons?') || request.url.endsWith(`${providerId}/addons`),
          );
        expect(tried.map((request) => request.method)).toEqual(['POST', 'GET']);
        expect(addonsOf(providerId)).toHaveLength(0);
        const [kept] = await overageRows(s, licenseId);
        expect(kept).toMatchObject({ status: 'pending', provider_addon_id: null });

        expect(await s.app.scheduler.runOnce()).toBe(true);
        expect(await s.app.scheduler.runOnce()).toBe(true);
        expect(addonsOf(providerId)).toHaveLength(1);
        expect(addonRequests(providerId)).toHaveLength(2);
        expect(await overageRows(s, licenseId)).toEqual([
          expect.objectContaining({ id: kept?.id, provider_addon_id: addonsOf(providerId)[0]?.['id'] }),
        ]);
      });
    });
  },
  razorpayServer,
);
