import { describe, expect, it } from 'vitest';
import { usageGrantSchema } from '../../../src/shared/api/admin.js';
import { paymentRefundsSchema } from '../../../src/shared/api/invoices.js';
import { licenseUsageSchema } from '../../../src/shared/api/licenses.js';
import { paymentOrderSchema } from '../../../src/shared/api/payments.js';
import type { Overage } from '../../../src/shared/api/plans.js';
import { type UsageBatchResponse, usageBatchResponseSchema } from '../../../src/shared/api/usage.js';
import type { PackBoughtEvent } from '../../../src/server/licensing/events.js';
import { billableOverage } from '../../../src/server/licensing/usage/allowance.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { eventsAbout, signInAsAdmin, type SignedIn } from '../helpers/admin-helpers.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import { invoiceOfPayment } from '../helpers/invoice-helpers.js';
import {
  createPlan,
  featureByKey,
  giveLicense,
  type Member,
  member,
  signInAgain,
  usageTotals,
} from '../helpers/license-helpers.js';
import { expectVerified, payInSandbox, verifyPayment } from '../helpers/payment-helpers.js';

interface Event {
  id: string;
  feature: string;
  amount: number;
  occurred_at?: string;
}

const PACK = { units: 500, price_minor: 49_900 };

const events = (prefix: string, count: number, amount = 1): Event[] =>
  Array.from({ length: count }, (_, index) => ({ id: `${prefix}-${index}`, feature: 'ai_chat', amount }));

async function reported(s: TestServer, token: string, licenseId: string, batch: Event[]) {
  const response = await s.api({
    method: 'POST',
    path: `/licenses/${licenseId}/usage/events`,
    token,
    body: { events: batch },
  });
  expect(response.statusCode, response.body).toBe(200);
  return usageBatchResponseSchema.parse(response.json());
}

const counted = (answer: UsageBatchResponse) => answer.counted;

/** A customer with a license metering AI requests (`ai_chat`) at `allowance` a month, selling a 500 pack. */
async function customerWith(s: TestServer, allowance: number, overage?: Overage, pack = PACK) {
  const plan = await createPlan(s, {
    features: { ai_chat: allowance, offline_mode: null },
    packs: { ai_chat: pack },
    ...(overage ? { overage: { ai_chat: overage } } : {}),
  });
  const owner = await member(s);
  const license = await giveLicense(s, owner, plan);
  const feature = await featureByKey(s, 'ai_chat');
  return { owner, license, featureId: feature.id, plan };
}

/** The middle of the current UTC month, so a test's events stay in one month whatever today is. */
function midMonth(s: TestServer) {
  const now = s.clock.now();
  s.clock.advance(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 15, 12) - now.getTime());
}

const buy = (s: TestServer, token: string, licenseId: string, body: unknown) =>
  s.api({ method: 'POST', path: `/licenses/${licenseId}/usage/packs`, token, body });

/** Buys packs in the sandbox: order, pay, verify; answers the order and what verify sends. */
async function buyInSandbox(s: TestServer, who: Member, licenseId: string, quantity = 1) {
  const response = await buy(s, who.token, licenseId, { feature: 'ai_chat', quantity });
  expect(response.statusCode, response.body).toBe(201);
  const order = paymentOrderSchema.parse(response.json());
  const paid = await payInSandbox(s, who.token, order.order_id);
  expectVerified(await verifyPayment(s, who.token, paid));
  return { order, paid };
}

const grant = (s: TestServer, admin: SignedIn, licenseId: string, body: unknown) =>
  s.api({ method: 'POST', path: `/admin/licenses/${licenseId}/usage/grants`, token: admin.token, body });

async function granted(s: TestServer, admin: SignedIn, licenseId: string, body: unknown) {
  const response = await grant(s, admin, licenseId, body);
  expect(response.statusCode, response.body).toBe(201);
  return usageGrantSchema.parse(response.json());
}

const packRows = (s: TestServer, licenseId: string) =>
  s.app.db
    .selectFrom('usage_packs')
    .selectAll()
    .where('license_id', '=', licenseId)
    .orderBy('expires_at')
    .execute();

async function usageOf(s: TestServer, token: string, licenseId: string) {
  const response = await s.api({ path: `/licenses/${licenseId}/usage?days=1`, token });
  expect(response.statusCode, response.body).toBe(200);
  return licenseUsageSchema.parse(response.json());
}

describeOnEveryDatabase('usage: credit packs bought, granted, drawn and refunded', (server) => {
  describe('buying in the sandbox', () => {
    it('settles once: the pack, its invoice line and its webhook event; a replayed verify adds nothing', async () => {
      const s = server();
      midMonth(s);
      const { owner, license, featureId } = await customerWith(s, 1000);
      const heard: PackBoughtEvent[] = [];
      s.app.events.on('usage.pack_bought', ((_trx: unknown, event: PackBoughtEvent) => {
        heard.push(event);
        return Promise.resolve();
      }) as never);
      const { order, paid } = await buyInSandbox(s, owner, license.id, 2);
      expect(order.amount).toBe(2 * PACK.price_minor);
      expect(order.currency).toBe('INR');

      const again = await verifyPayment(s, owner.token, paid);
      expect(again.statusCode, again.body).toBe(200);
      const packs = await packRows(s, license.id);
      expect(packs).toHaveLength(1);
      expect(packs[0]).toMatchObject({
        feature_id: featureId,
        units: 1000,
        used: 0,
        source: 'purchase',
        payment_id: order.id,
      });
      // Valid for USAGE_PACK_VALID_MONTHS, 12 by default.
      const expires = new Date(packs[0]!.expires_at);
      const bought = s.clock.now();
      expect(expires.getUTCFullYear() * 12 + expires.getUTCMonth()).toBe(
        bought.getUTCFullYear() * 12 + bought.getUTCMonth() + 12,
      );

      const invoice = await invoiceOfPayment(s, owner.token, order.id);
      expect(invoice.lines[0]).toMatchObject({ quantity: 2, unit_amount: PACK.price_minor });
      expect(invoice.lines[0]?.description).toMatch(/^500 messages credit pack, valid until \d+ \w+ \d{4}$/);
      expect(invoice.total).toBe(2 * PACK.price_minor);

      // Announced once, for the webhook of the same name.
      expect(
        heard.map((event) => [event.type, event.license.id, event.pack.units, event.pack.paymentId]),
      ).toEqual([['usage.pack_bought', license.id, 1000, order.id]]);

      const usage = await usageOf(s, owner.token, license.id);
      expect(usage.packs).toEqual([
        expect.objectContaining({
          feature_id: featureId,
          units: 1000,
          used: 0,
          left: 1000,
          source: 'purchase',
        }),
      ]);
      expect(usage.usage_info.features.find((feature) => feature.key === 'ai_chat')).toMatchObject({
        pack: PACK,
        packs_left: 1000,
        remaining: 2000,
      });
    });

    it('refuses bad orders: unknown feature, no pack on sale, quantity 0 or absurd, someone else’s license', async () => {
      const s = server();
      const { owner, license } = await customerWith(s, 1000);
      expectApiError(
        await buy(s, owner.token, license.id, { feature: 'no_such', quantity: 1 }),
        404,
        'feature_not_found',
      );
      expectApiError(
        await buy(s, owner.token, license.id, { feature: 'offline_mode', quantity: 1 }),
        400,
        'feature_not_metered',
      );
      for (const quantity of [0, -1, 1.5, 101, 1e9])
        expectApiError(
          await buy(s, owner.token, license.id, { feature: 'ai_chat', quantity }),
          400,
          'validation_error',
        );
      expectApiError(
        await buy(s, owner.token, license.id, { feature: 'ai_chat', quantity: 1, amount: 1 }),
        400,
        'validation_error',
      );
      const stranger = await member(s);
      expectApiError(
        await buy(s, stranger.token, license.id, { feature: 'ai_chat', quantity: 1 }),
        404,
        'license_not_found',
      );
      const withoutPack = await createPlan(s, { features: { ai_chat: 100 } });
      const other = await giveLicense(s, owner, withoutPack);
      expectApiError(
        await buy(s, owner.token, other.id, { feature: 'ai_chat', quantity: 1 }),
        409,
        'pack_not_sold',
      );
      expect(
        await s.app.db
          .selectFrom('usage_pack_orders')
          .selectAll()
          .where('license_id', 'in', [license.id, other.id])
          .execute(),
      ).toEqual([]);
    });
  });

  describe('drawing', () => {
    it('takes the allowance first, then the earliest-expiring pack, skipping an expired one', async () => {
      const s = server();
      midMonth(s);
      const admin = await signInAsAdmin(s);
      const { owner, license, featureId } = await customerWith(s, 10);
      const later = await granted(s, admin, license.id, {
        feature: 'ai_chat',
        units: 5,
        reason: 'Support goodwill',
      });
      const sooner = await granted(s, admin, license.id, {
        feature: 'ai_chat',
        units: 5,
        reason: 'Outage credit',
        valid_months: 2,
      });
      const expired = await granted(s, admin, license.id, {
        feature: 'ai_chat',
        units: 50,
        reason: 'Old credit',
        valid_months: 1,
      });
      await s.app.db
        .updateTable('usage_packs')
        .set({ expires_at: new Date(s.clock.now().getTime() - 1000).toISOString() })
        .where('id', '=', expired.id)
        .execute();

      const answer = await reported(s, owner.token, license.id, events('draw', 12));
      expect(counted(answer)).toBe(12);
      const byId = new Map((await packRows(s, license.id)).map((pack) => [pack.id, Number(pack.used)]));
      expect(byId.get(sooner.id)).toBe(2);
      expect(byId.get(later.id)).toBe(0);
      expect(byId.get(expired.id)).toBe(0);

      const more = await reported(s, owner.token, license.id, events('more', 6));
      expect(counted(more)).toBe(6);
      const after = new Map((await packRows(s, license.id)).map((pack) => [pack.id, Number(pack.used)]));
      expect(after.get(sooner.id)).toBe(5);
      expect(after.get(later.id)).toBe(3);
      const counter = await s.app.db
        .selectFrom('usage_counters')
        .select(['total', 'from_packs'])
        .where('license_id', '=', license.id)
        .where('feature_id', '=', featureId)
        .executeTakeFirstOrThrow();
      expect({ total: Number(counter.total), from_packs: Number(counter.from_packs) }).toEqual({
        total: 18,
        from_packs: 8,
      });
    });

    it('under stop, the ceiling is the allowance and the packs left', async () => {
      const s = server();
      midMonth(s);
      const admin = await signInAsAdmin(s);
      const { owner, license, featureId } = await customerWith(s, 10);
      await granted(s, admin, license.id, { feature: 'ai_chat', units: 5, reason: 'Trial extension' });
      const answer = await reported(s, owner.token, license.id, events('stop', 16));
      expect(counted(answer)).toBe(15);
      expect(answer.results[15]).toMatchObject({ outcome: 'refused', code: 'allowance_used' });
      expect(answer.features[0]).toMatchObject({
        used: 15,
        from_packs: 5,
        packs_left: 0,
        remaining: 0,
        over_allowance: 0,
        available: false,
      });
      expect(await usageTotals(s, license.id, featureId)).toMatchObject({ counter: 15 });
    });

    it('under bill, packs are drawn before anything is overage; under cap, the cap comes after the packs', async () => {
      const s = server();
      midMonth(s);
      const admin = await signInAsAdmin(s);
      const billed = await customerWith(s, 10, { policy: 'bill', price_minor: 100, per_units: 1, cap: null });
      await granted(s, admin, billed.license.id, { feature: 'ai_chat', units: 5, reason: 'Goodwill' });
      const bill = await reported(s, billed.owner.token, billed.license.id, events('bill', 20));
      expect(counted(bill)).toBe(20);
      expect(bill.features[0]).toMatchObject({ used: 20, from_packs: 5, over_allowance: 5 });
      expect(billableOverage(10, 20, 5)).toBe(5);

      const capped = await customerWith(s, 10, { policy: 'cap', price_minor: 100, per_units: 1, cap: 3 });
      await granted(s, admin, capped.license.id, { feature: 'ai_chat', units: 5, reason: 'Goodwill' });
      const cap = await reported(s, capped.owner.token, capped.license.id, events('cap', 20));
      expect(counted(cap)).toBe(18);
      expect(cap.results[18]).toMatchObject({ outcome: 'refused', code: 'overage_cap_reached' });
      expect(cap.features[0]).toMatchObject({ used: 18, from_packs: 5, over_allowance: 3 });
    });

    it('two devices draining the last pack units at once draw exactly the pack', async () => {
      const s = server();
      midMonth(s);
      const admin = await signInAsAdmin(s);
      const { owner, license, featureId } = await customerWith(s, 40);
      const pack = await granted(s, admin, license.id, { feature: 'ai_chat', units: 10, reason: 'Race' });
      const otherDevice = await signInAgain(s, { ...owner });
      await reported(s, owner.token, license.id, events('before', 40));
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          reported(s, [owner, otherDevice][index % 2]!.token, license.id, events(`race-${index}`, 3)),
        ),
      );
      expect(answers.reduce((sum, answer) => sum + answer.counted, 0)).toBe(10);
      expect(await usageTotals(s, license.id, featureId)).toEqual({ counter: 50, events: 50, eventSum: 50 });
      const [row] = await packRows(s, license.id);
      expect({ id: row?.id, used: Number(row?.used) }).toEqual({ id: pack.id, used: 10 });
    });
  });

  describe('refunds', () => {
    it('refunds the unused share after partial use and ends the pack; a used-up pack is refused', async () => {
      const s = server();
      midMonth(s);
      const admin = await signInAsAdmin(s);
      const { owner, license } = await customerWith(s, 10, undefined, { units: 300, price_minor: 1000 });
      const { order } = await buyInSandbox(s, owner, license.id);
      // 10 from the allowance, then 100 of the pack's 300.
      await reported(s, owner.token, license.id, events('use', 11, 10));
      const refundPath = `/payments/admin/payments/${order.id}/refunds`;
      const kept = await s.api({
        method: 'POST',
        path: refundPath,
        token: admin.token,
        body: { license_action: 'revoke', reason: 'no' },
      });
      expectApiError(kept, 409, 'pack_refund_keeps_license');
      const too = await s.api({
        method: 'POST',
        path: refundPath,
        token: admin.token,
        body: { license_action: 'keep', amount: 700 },
      });
      expectApiError(too, 409, 'refund_exceeds_payment');
      const response = await s.api({
        method: 'POST',
        path: refundPath,
        token: admin.token,
        body: { license_action: 'keep' },
      });
      expect(response.statusCode, response.body).toBe(201);
      // 200 of 300 units unused: floor(1000 × 200 / 300) = 666.
      expect(paymentRefundsSchema.parse(response.json())).toMatchObject({ refunded: 666 });
      const [pack] = await packRows(s, license.id);
      expect(pack?.ended_at).not.toBeNull();
      expect(Number(pack?.used)).toBe(100);
      // Nothing more is drawn from it: the allowance is used and stop refuses.
      const after = await reported(s, owner.token, license.id, events('after', 1));
      expect(after.results[0]).toMatchObject({ outcome: 'refused', code: 'allowance_used' });

      // A second pack, used up: nothing unused to refund.
      const second = await buyInSandbox(s, owner, license.id);
      await reported(s, owner.token, license.id, events('drain', 30, 10));
      expectApiError(
        await s.api({
          method: 'POST',
          path: `/payments/admin/payments/${second.order.id}/refunds`,
          token: admin.token,
          body: { license_action: 'keep' },
        }),
        409,
        'pack_used_up',
      );
    });
  });

  describe('administrator grants', () => {
    it('needs a reason, names a metered feature, and writes a security event with the pack', async () => {
      const s = server();
      const admin = await signInAsAdmin(s);
      const { owner, license, featureId } = await customerWith(s, 10);
      for (const body of [
        { feature: 'ai_chat', units: 5 },
        { feature: 'ai_chat', units: 5, reason: '   ' },
        { feature: 'ai_chat', units: 5, reason: 'x'.repeat(501) },
        { feature: 'ai_chat', units: 0, reason: 'Goodwill' },
        { feature: 'ai_chat', units: 2.5, reason: 'Goodwill' },
        { feature: 'ai_chat', units: 5, reason: 'Goodwill', valid_months: 0 },
      ])
        expectApiError(await grant(s, admin, license.id, body), 400, 'validation_error');
      expectApiError(
        await grant(s, admin, license.id, { feature: 'no_such', units: 5, reason: 'Goodwill' }),
        404,
        'feature_not_found',
      );
      expectApiError(
        await grant(s, admin, license.id, { feature: 'offline_mode', units: 5, reason: 'Goodwill' }),
        400,
        'feature_not_metered',
      );
      expectApiError(
        await grant(s, admin, 'no-such-license', { feature: 'ai_chat', units: 5, reason: 'Goodwill' }),
        404,
        'license_not_found',
      );
      expectApiError(
        await grant(s, owner as unknown as SignedIn, license.id, {
          feature: 'ai_chat',
          units: 5,
          reason: 'Mine',
        }),
        403,
        'admin_required',
      );
      expect(await packRows(s, license.id)).toEqual([]);

      const pack = await granted(s, admin, license.id, {
        feature: 'ai_chat',
        units: 250,
        reason: 'Outage on 3 December',
      });
      expect(pack).toMatchObject({ feature_id: featureId, units: 250, reason: 'Outage on 3 December' });
      const [event] = await eventsAbout(s, 'usage_units_granted', owner.id);
      expect(event?.actor_id).toBe(admin.id);
      expect(JSON.parse(event?.details ?? '{}')).toMatchObject({
        license_id: license.id,
        units: 250,
        reason: 'Outage on 3 December',
      });
    });
  });
});
