import { expect, it } from 'vitest';
import type { Config } from '../../../src/server/platform/config.js';
import { invoiceListSchema } from '../../../src/shared/api/invoices.js';
import { type QueryRecorder, recordedDatabase } from '../../support/query-recorder.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { member } from '../helpers/license-helpers.js';
import { chargesOf, later, subscribe, subscriptionRow } from '../helpers/subscription-helpers.js';

/**
 * Billing's one settle, seen from what it reads and what it leaves: a charge is settled from the
 * rows its caller holds, and every paid charge ends with its invoice.
 */

/** The statements of the suite's server, for counting what a renewal reads. */
let recorder: QueryRecorder | undefined;

async function couponForEveryCharge(s: TestServer): Promise<string> {
  const admin = await member(s, 'admin');
  const code = `EVERY${Math.floor(Math.random() * 1e9)}`;
  const created = await s.api({
    method: 'POST',
    path: '/admin/coupons',
    token: admin.token,
    body: { code, currency: 'INR', percent_off: 10, duration: 'forever' },
  });
  expect(created.statusCode, created.body).toBe(201);
  return code;
}

describeOnEveryDatabase(
  'billing: one settle for every charge',
  (server) => {
    it('a sandbox renewal with a coupon on every charge reads the coupon once, for its price and for its invoice', async () => {
      const s = server();
      const buyer = await member(s);
      const code = await couponForEveryCharge(s);
      const { subscription } = await subscribe(s, buyer, 'pro-monthly', { couponCode: code });
      const id = subscription.id;
      // The scheduler renews it once its period is over (no answer to render, so only the renewal reads).
      await later(s, buyer, Date.parse(subscription.current_period_end!) - s.clock.now().getTime() + 60_000);

      recorder!.reset();
      expect(await s.app.scheduler.runOnce()).toBe(true);
      expect((await subscriptionRow(s, id)).cycles).toBe(2);
      expect(recorder!.readsOf('coupons')).toBe(1);

      // The coupon read once is the one on the renewal's invoice, at the discounted price charged.
      const charges = await chargesOf(s, id);
      const renewal = charges.find((charge) => charge.provider_order_id.endsWith('#2'));
      expect(renewal).toMatchObject({ status: 'paid', amount_minor: 89_910 });
      const invoices = await s.api({ method: 'GET', path: '/billing/invoices', token: buyer.token });
      expect(invoices.statusCode, invoices.body).toBe(200);
      const invoice = invoiceListSchema
        .parse(invoices.json())
        .data.find((item) => item.payment_id === renewal!.id);
      expect(invoice?.total).toBe(89_910);
      expect(invoice?.lines.find((line) => line.kind === 'discount')?.coupon_code).toBe(code);
    });
  },
  {
    appOverrides: (config: Config) => {
      const recorded = recordedDatabase(config);
      recorder = recorded.recorder;
      return { database: recorded.database };
    },
  },
);
