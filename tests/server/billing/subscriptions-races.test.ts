import { expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import { createCouponsService } from '../../../src/server/catalogue/coupons/service.js';
import { createRefundsService } from '../../../src/server/billing/invoices/refunds.js';
import { createConfiguredProvider } from '../../../src/server/billing/payments/configured-provider.js';
import { createSettlement } from '../../../src/server/billing/settlement/settle.js';
import { createSubscriptionsArea } from '../../../src/server/billing/subscriptions/module.js';
import { findSubscription } from '../../../src/server/billing/subscriptions/repository.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { member, planByCode } from '../helpers/license-helpers.js';
import { chargesOf, later, licenseRow, subscribe, subscriptionRow } from '../helpers/subscription-helpers.js';

/** The server's own subscription rules on its database, built as the server builds them, to run two at once. */
function rulesOf(s: TestServer) {
  const log = { error: () => undefined } as unknown as Parameters<typeof createSubscriptionsArea>[0]['log'];
  const provider = createConfiguredProvider(s.config);
  const refunds = createRefundsService({
    db: s.app.db,
    clock: s.clock,
    events: s.app.events,
    provider,
    invoicing: s.config.invoices,
    log,
  });
  const settlement = createSettlement({
    clock: s.clock,
    events: s.app.events,
    invoicing: s.config.invoices,
    reserveCredit: refunds.reserveCredit,
  });
  return createSubscriptionsArea({
    db: s.app.db,
    clock: s.clock,
    events: s.app.events,
    provider,
    config: s.config,
    mailer: s.app.mailer,
    coupons: createCouponsService({ db: s.app.db, clock: s.clock }),
    settlement,
    refundCredit: refunds.refundCredit,
    reserveCredit: refunds.reserveCredit,
    log,
  });
}

const invoicesOf = (s: TestServer, paymentIds: string[]) =>
  s.app.db.selectFrom('invoices').selectAll().where('payment_id', 'in', paymentIds).execute();

describeOnEveryDatabase('subscriptions: races', (server) => {
  it('one renewal reported twice at once (webhook and verify, say) extends the license once', async () => {
    const s = server();
    const buyer = await member(s);
    const pro = await planByCode(s, 'pro-monthly');
    const { subscription, license } = await subscribe(s, buyer);
    const { charges } = rulesOf(s);
    const report = {
      subscriptionId: subscription.id,
      cycle: 2,
      providerPaymentId: 'pay_reported_twice',
      amountMinor: pro.price_minor,
      currency: 'INR',
    };
    const outcomes = await Promise.all(
      [1, 2].map(() =>
        s.app.db.transaction().execute((trx) => charges.settle(trx, { kind: 'cycle', report })),
      ),
    );
    expect(outcomes.map((outcome) => outcome.outcome).sort()).toEqual(['already_paid', 'paid']);
    const row = await subscriptionRow(s, subscription.id);
    expect(row.cycles).toBe(2);
    expect((await licenseRow(s, license.license_id)).expires_at).toBe(row.current_period_end);
    const paid = await chargesOf(s, subscription.id);
    expect(paid.map((charge) => charge.status)).toEqual(['paid', 'paid']);

    // Reported again later, and the earlier cycle reported out of order: nothing moves back or twice.
    await s.app.db.transaction().execute((trx) => charges.settle(trx, { kind: 'cycle', report }));
    await s.app.db.transaction().execute((trx) =>
      charges.settle(trx, {
        kind: 'cycle',
        report: { ...report, cycle: 1, providerPaymentId: 'pay_late_first' },
      }),
    );
    expect(await subscriptionRow(s, subscription.id)).toMatchObject({
      cycles: 2,
      current_period_end: row.current_period_end,
    });
    expect(await chargesOf(s, subscription.id)).toHaveLength(2);
    // One invoice per charge, numbered one after the other.
    const invoices = await invoicesOf(
      s,
      paid.map((charge) => charge.id),
    );
    expect(invoices).toHaveLength(2);
    const [first, second] = invoices.map((invoice) => invoice.sequence).sort((a, b) => a - b);
    expect(second).toBe((first as number) + 1);
  });

  it('a renewal run twice at once (two schedulers whose leases overlapped) charges the period once', async () => {
    const s = server();
    const buyer = await member(s);
    const { subscription } = await subscribe(s, buyer);
    const end = subscription.current_period_end as string;
    await later(s, buyer, Date.parse(end) - s.clock.now().getTime() + 60_000);
    const first = rulesOf(s);
    const second = rulesOf(s);
    await Promise.all([first.lifecycle.advance(subscription.id), second.lifecycle.advance(subscription.id)]);
    expect((await subscriptionRow(s, subscription.id)).cycles).toBe(2);
    expect(await chargesOf(s, subscription.id)).toHaveLength(2);
  });

  it('two servers on one database: one holds the scheduler’s lease and renews; the other waits for it to expire', async () => {
    const s = server();
    const buyer = await member(s);
    const { subscription } = await subscribe(s, buyer);
    await later(
      s,
      buyer,
      Date.parse(subscription.current_period_end as string) - s.clock.now().getTime() + 60_000,
    );
    const second = await buildApp(s.config, { clock: s.clock, logger: false });
    try {
      const ran = await Promise.all([s.app.scheduler.runOnce(), second.scheduler.runOnce()]);
      expect(ran.filter(Boolean)).toHaveLength(1);
      expect((await subscriptionRow(s, subscription.id)).cycles).toBe(2);
      // The holder keeps it while it runs; once its lease has run out, the other takes over.
      const holder = ran[0] ? s.app : second;
      const other = ran[0] ? second : s.app;
      expect(await other.scheduler.runOnce()).toBe(false);
      expect(await holder.scheduler.runOnce()).toBe(true);
      s.clock.advance(10 * 60_000);
      expect(await other.scheduler.runOnce()).toBe(true);
      expect(await holder.scheduler.runOnce()).toBe(false);
    } finally {
      await second.close();
    }
  });

  it('a cancellation racing a renewal: either the renewal is charged and then cancelled at its end, or nothing is charged', async () => {
    const s = server();
    for (let round = 0; round < 4; round++) {
      const buyer = await member(s);
      const { subscription, license } = await subscribe(s, buyer);
      const end = subscription.current_period_end as string;
      await later(s, buyer, Date.parse(end) - s.clock.now().getTime() + 60_000);
      const { lifecycle } = rulesOf(s);
      const [, cancel] = await Promise.all([
        lifecycle.advance(subscription.id),
        s.api({
          method: 'POST',
          path: `/subscriptions/${subscription.id}/cancel`,
          token: buyer.token,
          body: {},
        }),
      ]);
      expect(cancel.statusCode, cancel.body).toBe(200);
      // Whatever ran first, the end of the period now ends it unless a renewal was charged first.
      await lifecycle.advance(subscription.id);
      const row = await subscriptionRow(s, subscription.id);
      const charges = await chargesOf(s, subscription.id);
      const expiry = (await licenseRow(s, license.license_id)).expires_at;
      if (charges.length === 2) {
        expect(row).toMatchObject({ status: 'active', cancel_at_period_end: 1, cycles: 2 });
        expect(expiry).toBe(row.current_period_end);
      } else {
        expect(charges).toHaveLength(1);
        expect(row).toMatchObject({ status: 'cancelled', cycles: 1, ended_at: end });
        expect(expiry).toBe(end);
      }
    }
  });

  it('a plan change while a renewal is in flight: one of them wins, the other is refused or finds nothing due', async () => {
    const s = server();
    const yearly = await planByCode(s, 'pro-yearly');
    for (let round = 0; round < 4; round++) {
      const buyer = await member(s);
      const { subscription, license } = await subscribe(s, buyer);
      const end = subscription.current_period_end as string;
      await later(s, buyer, Date.parse(end) - s.clock.now().getTime() + 60_000);
      const { lifecycle } = rulesOf(s);
      const [, change] = await Promise.all([
        lifecycle.advance(subscription.id),
        s.api({
          method: 'POST',
          path: `/subscriptions/${subscription.id}/plan`,
          token: buyer.token,
          body: { plan_id: yearly.id },
        }),
      ]);
      expect([200, 409]).toContain(change.statusCode);
      const row = await findSubscription(s.app.db, subscription.id);
      const charges = await chargesOf(s, subscription.id);
      expect(new Set(charges.map((charge) => charge.provider_order_id)).size).toBe(charges.length);
      expect(charges.every((charge) => charge.status === 'paid')).toBe(true);
      expect(row?.cycles).toBe(charges.length);
      expect((await licenseRow(s, license.license_id)).expires_at).toBe(row?.current_period_end);
      if (change.statusCode === 200) expect(row?.plan_id).toBe(yearly.id);
    }
  });
});
