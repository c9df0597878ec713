import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { licenseUsageSchema } from '../../../src/shared/api/licenses.js';
import type { Overage } from '../../../src/shared/api/plans.js';
import { utc } from '../../../src/shared/dates.js';
import type { InvoiceLine } from '../../../src/shared/api/invoices.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { createPlan, giveLicense, type Member, member, signInAgain } from '../helpers/license-helpers.js';
import { chargesOf, subscribe, subscriptionCall } from '../helpers/subscription-helpers.js';

/**
 * Overage billed with the sandbox's renewals: the use past the allowance of every period that has
 * ended is charged once, with the next renewal, itemised on its invoice, and announced. The clock
 * only moves forward here (to the 10th of each next month), so the tests share one server.
 */

const BILL: Overage = { policy: 'bill', price_minor: 50, per_units: 100, cap: null };
const PLAN_PRICE = 99_900;

/** Freezes the clock at 10:00 UTC on the 10th of the month after the clock's, and signs people in again. */
async function nextMonth(s: TestServer, ...who: Member[]): Promise<string> {
  s.clock.freeze();
  const target = utc(s.clock.now()).startOf('month').add(1, 'month').add(9, 'day').add(10, 'hour');
  s.clock.advance(target.valueOf() - s.clock.now().getTime());
  for (const person of who) await signInAgain(s, person);
  return target.toISOString();
}

/** A customer subscribed (in the sandbox) to a monthly plan of 1 000 AI chat messages a month. */
async function subscriber(s: TestServer, overage: Overage = BILL, { sameMonth = false } = {}) {
  const plan = await createPlan(s, {
    price: PLAN_PRICE,
    interval: 'month',
    features: { ai_chat: 1000 },
    overage: { ai_chat: overage },
  });
  const owner = await member(s);
  if (!sameMonth) await nextMonth(s, owner);
  const { subscription, license } = await subscribe(s, owner, plan.code);
  return { plan, owner, subscriptionId: subscription.id, licenseId: license.license_id };
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
          id: `overage-${++sequence}`,
          feature: 'ai_chat',
          amount,
          ...(occurredAt ? { occurred_at: occurredAt } : {}),
        },
      ],
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json<{ counted: number }>().counted).toBe(1);
}

const renew = (s: TestServer, who: Member, id: string) =>
  subscriptionCall(s, who, 'POST', `/subscriptions/${id}/sandbox/renew`);

async function invoiceOf(s: TestServer, paymentId: string) {
  const row = await s.app.db
    .selectFrom('invoices')
    .selectAll()
    .where('payment_id', '=', paymentId)
    .executeTakeFirstOrThrow();
  return { ...row, lines: JSON.parse(row.lines) as InvoiceLine[] };
}

const overageRows = (s: TestServer, licenseId: string) =>
  s.app.db
    .selectFrom('usage_overage_charges')
    .selectAll()
    .where('license_id', '=', licenseId)
    .orderBy('created_at')
    .execute();

async function usageReport(s: TestServer, who: Member, licenseId: string) {
  const response = await s.api({ method: 'GET', path: `/licenses/${licenseId}/usage`, token: who.token });
  expect(response.statusCode, response.body).toBe(200);
  return licenseUsageSchema.parse(response.json());
}

/** An endpoint (disabled, so nothing is sent) subscribed to overage charges: its events are queued. */
async function overageEndpoint(s: TestServer) {
  const now = s.clock.now().toISOString();
  await s.app.db
    .insertInto('webhook_endpoints')
    .values({
      id: randomUUID(),
      url: 'https://example.com/webhooks',
      description: 'overage test',
      event_types: JSON.stringify(['usage.overage_charged']),
      secret: 'whsec_test',
      previous_secret: null,
      previous_secret_expires_at: null,
      disabled_at: now,
      disabled_reason: 'test',
      consecutive_failures: 0,
      failing_since: null,
      created_by: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

const overagePayloads = async (s: TestServer) =>
  (
    await s.app.db
      .selectFrom('webhook_events')
      .select('payload')
      .where('type', '=', 'usage.overage_charged')
      .orderBy('created_at')
      .execute()
  ).map((row) => JSON.parse(row.payload) as { type: string; data: Record<string, Record<string, unknown>> });

const monthWords = (moment: string) =>
  new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(moment),
  );

describeOnEveryDatabase('usage: overage billed with the sandbox’s renewals', (server) => {
  it('a month’s overage is charged once with the next renewal, itemised with tax, announced; a retried renewal adds nothing', async () => {
    const s = server();
    await overageEndpoint(s);
    const { owner, subscriptionId, licenseId } = await subscriber(s);
    const month = s.clock.now().toISOString();
    await use(s, owner, licenseId, 2234);

    // Before the month ends: projected, not owed; charged with the next renewal.
    const during = await usageReport(s, owner, licenseId);
    expect(during.overage).toEqual([
      expect.objectContaining({ projected_minor: 650, owed_minor: 0, owed_units: 0, billable: true }),
    ]);

    await nextMonth(s, owner);
    const after = await usageReport(s, owner, licenseId);
    expect(after.overage[0]).toMatchObject({ projected_minor: 0, owed_units: 1234, owed_minor: 650 });

    await renew(s, owner, subscriptionId);
    const charges = await chargesOf(s, subscriptionId);
    const charge = charges.at(-1)!;
    // Prices include the tax here: the overage adds its price, as the plan's price is added.
    expect(Number(charge.amount_minor)).toBe(PLAN_PRICE + 650);
    const invoice = await invoiceOf(s, charge.id);
    expect(invoice.lines.map((line) => [line.description, line.amount])).toEqual([
      [expect.stringMatching(/plan, monthly subscription$/), PLAN_PRICE],
      [`AI chat over the allowance, ${monthWords(month)}: 1,234 messages × ₹0.50 per 100`, 650],
    ]);
    expect(Number(invoice.total_minor)).toBe(PLAN_PRICE + 650);
    // The receipt lists the invoice's lines: the overage with them.
    const receipt = await s.lastMailTo(owner.email);
    expect(receipt.subject).toBe(`Your Desktop AI Assistant receipt ${invoice.number}`);
    expect(receipt.text).toContain(`AI chat over the allowance, ${monthWords(month)}: 1,234 messages`);
    expect(Number(invoice.tax_minor)).toBe(Math.round(((PLAN_PRICE + 650) * 1800) / 11_800));
    expect(await overageRows(s, licenseId)).toMatchObject([
      { units: 1234, amount_minor: 650, status: 'billed', payment_id: charge.id, invoice_id: invoice.id },
    ]);
    expect((await usageReport(s, owner, licenseId)).overage[0]).toMatchObject({
      owed_units: 0,
      owed_minor: 0,
    });

    // The webhook says what was charged, for which license, feature and period, on which invoice.
    const payloads = await overagePayloads(s);
    expect(payloads).toHaveLength(1);
    expect(payloads[0]?.data).toMatchObject({
      license: { id: licenseId },
      overage: {
        feature_key: 'ai_chat',
        period: 'month',
        period_start: utc(month).startOf('month').toISOString(),
        period_end: utc(month).startOf('month').add(1, 'month').toISOString(),
        units: 1234,
        amount_minor: 650,
        currency: 'INR',
        invoice_id: invoice.id,
        invoice_number: invoice.number,
        payment_id: charge.id,
      },
    });

    // The scheduler's renewal job runs again (a retry): nothing more is charged or recorded.
    expect(await s.app.scheduler.runOnce()).toBe(true);
    expect(await chargesOf(s, subscriptionId)).toHaveLength(charges.length);
    // The next renewal: the month was billed, so it carries the plan alone.
    await renew(s, owner, subscriptionId);
    const next = (await chargesOf(s, subscriptionId)).at(-1)!;
    expect(Number(next.amount_minor)).toBe(PLAN_PRICE);
    expect((await invoiceOf(s, next.id)).lines).toHaveLength(1);
    expect(await overageRows(s, licenseId)).toHaveLength(1);
    expect(await overagePayloads(s)).toHaveLength(1);
  });

  it('use reported late into a billed month is billed with the next renewal: only the units not billed, in blocks not charged before', async () => {
    const s = server();
    const { owner, subscriptionId, licenseId } = await subscriber(s);
    const month = s.clock.now().toISOString();
    await use(s, owner, licenseId, 2234);
    await nextMonth(s, owner);
    await renew(s, owner, subscriptionId);

    // An offline machine uploads 150 messages made last month, after it was billed.
    await use(s, owner, licenseId, 150, utc(month).add(5, 'day').toISOString());
    expect((await usageReport(s, owner, licenseId)).overage[0]).toMatchObject({
      owed_units: 150,
      owed_minor: 50,
    });
    await renew(s, owner, subscriptionId);
    const charge = (await chargesOf(s, subscriptionId)).at(-1)!;
    // 1 384 over in all is 14 blocks of 100 (₹7.00); 13 were charged (₹6.50): ₹0.50 more.
    expect(Number(charge.amount_minor)).toBe(PLAN_PRICE + 50);
    expect((await invoiceOf(s, charge.id)).lines[1]).toMatchObject({
      description: `AI chat over the allowance, ${monthWords(month)}: 150 messages × ₹0.50 per 100`,
      amount: 50,
    });
    expect((await overageRows(s, licenseId)).map((row) => [row.units, row.amount_minor])).toEqual([
      [1234, 650],
      [150, 50],
    ]);

    // Ten more late ones fit in the block already charged: nothing more to bill, and no empty line.
    await use(s, owner, licenseId, 10, utc(month).add(6, 'day').toISOString());
    await renew(s, owner, subscriptionId);
    const last = (await chargesOf(s, subscriptionId)).at(-1)!;
    expect(Number(last.amount_minor)).toBe(PLAN_PRICE);
    expect(await overageRows(s, licenseId)).toHaveLength(2);
  });

  it('two renewals at once: the month’s overage is on exactly one of their charges', async () => {
    const s = server();
    const { owner, subscriptionId, licenseId } = await subscriber(s);
    await use(s, owner, licenseId, 1500);
    await nextMonth(s, owner);
    await Promise.all([renew(s, owner, subscriptionId), renew(s, owner, subscriptionId)]);
    const amounts = (await chargesOf(s, subscriptionId)).map((charge) => Number(charge.amount_minor));
    expect(amounts.filter((amount) => amount === PLAN_PRICE + 250)).toHaveLength(1);
    expect(amounts.filter((amount) => amount !== PLAN_PRICE && amount !== PLAN_PRICE + 250)).toEqual([]);
    expect((await overageRows(s, licenseId)).map((row) => [row.units, row.amount_minor])).toEqual([
      [500, 250],
    ]);
  });

  it('the stop policy never bills; a capped feature bills up to its cap', async () => {
    const s = server();
    const stopped = await subscriber(s, { policy: 'stop', price_minor: null, per_units: 1, cap: null });
    const capped = await subscriber(
      s,
      { policy: 'cap', price_minor: 20, per_units: 1, cap: 100 },
      { sameMonth: true },
    );
    await use(s, stopped.owner, stopped.licenseId, 1000);
    await use(s, capped.owner, capped.licenseId, 1100);
    expect((await usageReport(s, stopped.owner, stopped.licenseId)).overage).toEqual([]);
    await nextMonth(s, stopped.owner, capped.owner);
    await renew(s, stopped.owner, stopped.subscriptionId);
    await renew(s, capped.owner, capped.subscriptionId);
    expect(Number((await chargesOf(s, stopped.subscriptionId)).at(-1)!.amount_minor)).toBe(PLAN_PRICE);
    expect(await overageRows(s, stopped.licenseId)).toEqual([]);
    const cappedCharge = (await chargesOf(s, capped.subscriptionId)).at(-1)!;
    expect(Number(cappedCharge.amount_minor)).toBe(PLAN_PRICE + 2000);
    expect((await invoiceOf(s, cappedCharge.id)).lines[1]?.description).toMatch(
      /: 100 messages × ₹0.20 each$/,
    );
  });

  it('a license without a subscription: its overage shows as not billable and is never charged', async () => {
    const s = server();
    const plan = await createPlan(s, {
      price: PLAN_PRICE,
      interval: 'month',
      features: { ai_chat: 1000 },
      overage: { ai_chat: BILL },
    });
    const owner = await member(s);
    const license = await giveLicense(s, owner, plan);
    await use(s, owner, license.id, 1500);
    expect((await usageReport(s, owner, license.id)).overage).toEqual([
      {
        feature_id: expect.any(String),
        projected_minor: 250,
        owed_units: 0,
        owed_minor: 0,
        billable: false,
        charged_on: null,
      },
    ]);
    await nextMonth(s, owner);
    expect((await usageReport(s, owner, license.id)).overage[0]).toMatchObject({
      owed_minor: 0,
      billable: false,
    });
    expect(await s.app.scheduler.runOnce()).toBe(true);
    expect(await overageRows(s, license.id)).toEqual([]);
  });
});
