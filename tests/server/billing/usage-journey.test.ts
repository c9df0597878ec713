import { decodeJwt } from 'jose';
import { expect, it } from 'vitest';
import type { InvoiceLine } from '../../../src/shared/api/invoices.js';
import { licenseUsageSchema } from '../../../src/shared/api/licenses.js';
import { paymentOrderSchema } from '../../../src/shared/api/payments.js';
import type { Overage } from '../../../src/shared/api/plans.js';
import { usageBatchResponseSchema } from '../../../src/shared/api/usage.js';
import type { LeaseClaims } from '../../../src/shared/lease.js';
import { utc } from '../../../src/shared/dates.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import {
  activate,
  createPlan,
  expectActivation,
  featureByKey,
  machine,
  type Member,
  member,
  signInAgain,
  validate,
} from '../helpers/license-helpers.js';
import { expectVerified, payInSandbox, verifyPayment } from '../helpers/payment-helpers.js';
import { chargesOf, subscribe, subscriptionCall } from '../helpers/subscription-helpers.js';

/**
 * The AI credits journey of issue 30, end to end on the sandbox: a customer with 1 000 requests a
 * month reports 900 (mailed at 80 %), goes offline and uses the units its lease reserved, comes back
 * and reconciles, buys a 500 pack, goes over under "allow and bill", and the renewal's invoice
 * carries the overage line with the amount the Usage page's numbers and chart add up to. Replaying
 * every batch of the run changes no counter.
 */

const BILL: Overage = { policy: 'bill', price_minor: 50, per_units: 100, cap: null };
const PLAN_PRICE = 99_900;
const PACK = { units: 500, price_minor: 20_000 };

interface Event {
  id: string;
  feature: string;
  amount: number;
  occurred_at?: string;
}

/** Freezes the clock at 10:00 UTC on the 10th of the month after the clock's. */
function tenthOfNextMonth(s: TestServer): void {
  s.clock.freeze();
  const target = utc(s.clock.now()).startOf('month').add(1, 'month').add(9, 'day').add(10, 'hour');
  s.clock.advance(target.valueOf() - s.clock.now().getTime());
}

const leaseUsage = (lease: string) => (decodeJwt(lease) as unknown as LeaseClaims).usage ?? [];

describeOnEveryDatabase('usage: the AI credits journey on the sandbox', (server) => {
  it('allowance, offline reservation, a pack, overage billed at renewal; the page agrees with the invoice; replays count nothing', async () => {
    const s = server();
    tenthOfNextMonth(s);
    const plan = await createPlan(s, {
      price: PLAN_PRICE,
      interval: 'month',
      seats: 2,
      features: { ai_chat: 1000 },
      overage: { ai_chat: BILL },
      packs: { ai_chat: PACK },
    });
    const owner: Member = await member(s);
    const { subscription, license } = await subscribe(s, owner, plan.code);
    const month = s.clock.now().toISOString();
    const featureId = (await featureByKey(s, 'ai_chat')).id;
    const hw = machine('journey');
    const activation = expectActivation(await activate(s, owner.token, license.license_key, hw), 201);
    expect(leaseUsage(activation.lease)).toEqual([
      expect.objectContaining({ key: 'ai_chat', reserved: 100 }),
    ]);

    const sent: { batch: Event[]; machine?: string }[] = [];
    let sequence = 0;
    const events = (count: number, amount: number, extra: Partial<Event> = {}): Event[] =>
      Array.from({ length: count }, () => ({
        id: `journey-${++sequence}`,
        feature: 'ai_chat',
        amount,
        ...extra,
      }));
    async function report(batch: Event[], from?: string) {
      sent.push({ batch, ...(from ? { machine: from } : {}) });
      const response = await s.api({
        method: 'POST',
        path: `/licenses/${license.license_id}/usage/events`,
        token: owner.token,
        body: { events: batch, ...(from ? { machine: from } : {}) },
      });
      expect(response.statusCode, response.body).toBe(200);
      return usageBatchResponseSchema.parse(response.json());
    }
    async function usagePage() {
      const response = await s.api({
        path: `/licenses/${license.license_id}/usage?days=31`,
        token: owner.token,
      });
      expect(response.statusCode, response.body).toBe(200);
      return licenseUsageSchema.parse(response.json());
    }

    // 900 requests online, in batches from the machine: mailed once at 80 %.
    for (let batch = 0; batch < 9; batch += 1) expect((await report(events(100, 1), hw)).counted).toBe(100);
    const warning = await s.lastMailTo(owner.email);
    expect(warning.subject).toBe('You have used 80% of AI chat this month');

    // The next check reserves what is left for the machine's offline use: 100 units.
    s.clock.advance(60_000);
    const checked = await validate(s, license.license_key, hw);
    expect(checked.statusCode, checked.body).toBe(200);
    const offlineLease = checked.json<{ lease: string }>().lease;
    expect(leaseUsage(offlineLease)).toEqual([expect.objectContaining({ key: 'ai_chat', reserved: 100 })]);

    // Offline for a day: the app allows 100 units against the lease and queues them with their times.
    const offlineAt = new Date(s.clock.now().getTime() + 3_600_000).toISOString();
    s.clock.advance(86_400_000);
    await signInAgain(s, owner);
    // Back online: the queue is uploaded; each event counts in the day it happened.
    const uploaded = await report(events(10, 10, { occurred_at: offlineAt }), hw);
    expect(uploaded.counted).toBe(10);
    // The check after it reconciles: the reservation it held is used up, and a new one is taken.
    const reconciled = await validate(s, license.license_key, hw);
    expect(reconciled.statusCode, reconciled.body).toBe(200);
    const afterOffline = await usagePage();
    const chat = () => afterOffline.usage_info.features.find((feature) => feature.key === 'ai_chat')!;
    expect(chat()).toMatchObject({ used: 1000, remaining: 0, over_allowance: 0 });

    // A 500 pack bought in the sandbox.
    const ordered = await s.api({
      method: 'POST',
      path: `/licenses/${license.license_id}/usage/packs`,
      token: owner.token,
      body: { feature: 'ai_chat', quantity: 1 },
    });
    expect(ordered.statusCode, ordered.body).toBe(201);
    const order = paymentOrderSchema.parse(ordered.json());
    expectVerified(await verifyPayment(s, owner.token, await payInSandbox(s, owner.token, order.order_id)));

    // 700 more: the pack's 500 first, then 200 past everything, billed under "allow and bill".
    for (let batch = 0; batch < 7; batch += 1) expect((await report(events(10, 10))).counted).toBe(10);
    const beforeRenewal = await usagePage();
    const feature = beforeRenewal.usage_info.features.find((item) => item.key === 'ai_chat')!;
    expect(feature).toMatchObject({ used: 1700, from_packs: 500, over_allowance: 200 });
    expect(beforeRenewal.packs).toEqual([expect.objectContaining({ units: 500, used: 500, left: 0 })]);
    // Projected: two blocks of 100 at ₹0.50.
    expect(beforeRenewal.overage).toEqual([
      expect.objectContaining({ projected_minor: 100, billable: true }),
    ]);
    // The chart's days add up to the month's use.
    const chartTotal = beforeRenewal.history
      .filter((day) => day.feature_id === featureId)
      .reduce((sum, day) => sum + day.amount, 0);
    expect(chartTotal).toBe(1700);

    // The renewal a month later carries the overage line, with the amount the page projected.
    tenthOfNextMonth(s);
    await signInAgain(s, owner);
    await subscriptionCall(s, owner, 'POST', `/subscriptions/${subscription.id}/sandbox/renew`);
    const charge = (await chargesOf(s, subscription.id)).at(-1)!;
    expect(Number(charge.amount_minor)).toBe(PLAN_PRICE + 100);
    const invoice = await s.app.db
      .selectFrom('invoices')
      .selectAll()
      .where('payment_id', '=', charge.id)
      .executeTakeFirstOrThrow();
    const lines = JSON.parse(invoice.lines) as InvoiceLine[];
    const monthName = new Intl.DateTimeFormat('en-GB', {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(month));
    expect(lines.map((line) => [line.description, line.amount])).toEqual([
      [expect.stringMatching(/plan, monthly subscription$/), PLAN_PRICE],
      [`AI chat over the allowance, ${monthName}: 200 messages × ₹0.50 per 100`, 100],
    ]);
    // The page's numbers for that month agree with the invoice: use − allowance − packs = the line's units.
    expect(feature.used - (feature.limit ?? 0) - feature.from_packs).toBe(200);

    // Every batch of the run sent again: all duplicates, no counter moves.
    const counters = () =>
      s.app.db
        .selectFrom('usage_counters')
        .select(['period_start', 'total', 'from_packs'])
        .where('license_id', '=', license.license_id)
        .orderBy('period_start')
        .execute();
    const daily = () =>
      s.app.db
        .selectFrom('usage_daily')
        .select(['day', 'total'])
        .where('license_id', '=', license.license_id)
        .orderBy('day')
        .execute();
    const before = { counters: await counters(), daily: await daily() };
    for (const { batch, machine: from } of [...sent]) {
      const again = await s.api({
        method: 'POST',
        path: `/licenses/${license.license_id}/usage/events`,
        token: owner.token,
        body: { events: batch, ...(from ? { machine: from } : {}) },
      });
      expect(again.statusCode, again.body).toBe(200);
      expect(usageBatchResponseSchema.parse(again.json())).toMatchObject({
        counted: 0,
        duplicates: batch.length,
      });
    }
    expect({ counters: await counters(), daily: await daily() }).toEqual(before);
  });
});
