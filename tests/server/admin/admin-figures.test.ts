import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { dashboardStatsSchema } from '../../../src/shared/api/admin.js';
import { adminPaymentListSchema } from '../../../src/shared/api/payments.js';
import type { PaymentStatus } from '../../../src/server/platform/db/tables.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { signInAsAdmin } from '../helpers/admin-helpers.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import { createPlan, DAY_MS, planByCode } from '../helpers/license-helpers.js';

/*
 * The administrators' figures (issue 27, point 5), worked out by hand to the paisa: MRR counts the
 * seats a subscription pays for and the coupons that recur on every charge; revenue is net of the
 * refunds processed, with gross and refunded beside it; a ₹0 charge (a plan change its credit paid
 * for) is no payment: not counted, and not refundable.
 */

const iso = (ms: number) => new Date(ms).toISOString();

async function insertPayment(
  s: TestServer,
  payment: { amount: number; currency: string; status: PaymentStatus; paidAt: number | null },
): Promise<string> {
  const plan = await planByCode(s, 'pro-monthly');
  const id = randomUUID();
  const created = iso(payment.paidAt ?? s.clock.now().getTime());
  await s.app.db
    .insertInto('payments')
    .values({
      id,
      user_id: null,
      plan_id: plan.id,
      provider: 'sandbox',
      provider_order_id: `order_figures_${id}`,
      provider_payment_id: payment.status === 'paid' ? `pay_figures_${id.slice(0, 8)}` : null,
      amount_minor: payment.amount,
      currency: payment.currency,
      status: payment.status,
      license_id: null,
      failure_reason: null,
      created_at: created,
      updated_at: created,
      paid_at: payment.paidAt === null ? null : iso(payment.paidAt),
    })
    .execute();
  return id;
}

async function insertRefund(
  s: TestServer,
  paymentId: string,
  refund: { amount: number; currency: string; status: 'pending' | 'processed' },
) {
  await s.app.db
    .insertInto('refunds')
    .values({
      id: randomUUID(),
      payment_id: paymentId,
      amount_minor: refund.amount,
      currency: refund.currency,
      status: refund.status,
      provider_refund_id: refund.status === 'processed' ? `rfnd_figures_${randomUUID().slice(0, 8)}` : null,
      reason: null,
      license_action: 'keep',
      actor_id: null,
      created_at: s.clock.now().toISOString(),
    })
    .execute();
}

describeOnEveryDatabase(
  'administrators’ figures: MRR with seats and coupons, revenue net of refunds',
  (server) => {
    it('works out MRR, gross, refunded and net revenue to the paisa, leaving out ₹0 charges', async () => {
      const s = server();
      s.clock.freeze();
      const admin = await signInAsAdmin(s);
      const now = s.clock.now().getTime();
      const before = dashboardStatsSchema.parse(
        (await s.api({ path: '/admin/dashboard', token: admin.token })).json(),
      );
      expect(before.revenue.totals).toEqual([]);
      expect(before.subscriptions.mrr).toEqual([]);

      const perSeat = await createPlan(s, { price: 1_499, interval: 'month' });
      await s.app.db.updateTable('plans').set({ seat_based: 1 }).where('id', '=', perSeat.id).execute();
      const personal = await createPlan(s, { price: 999, interval: 'month' });
      const yearly = await createPlan(s, { price: 10_001, interval: 'year' });

      const coupon = async (values: {
        percent_off?: number;
        amount_off_minor?: number;
        duration: 'once' | 'forever';
      }) => {
        const id = randomUUID();
        await s.app.db
          .insertInto('coupons')
          .values({
            id,
            code: `FIG${id.slice(0, 8).toUpperCase()}`,
            description: null,
            percent_off: values.percent_off ?? null,
            amount_off_minor: values.amount_off_minor ?? null,
            currency: values.amount_off_minor === undefined ? null : 'INR',
            duration: values.duration,
            expires_at: null,
            max_redemptions: null,
            redeemed_count: 1,
            archived_at: null,
            created_at: iso(now),
            updated_at: iso(now),
          })
          .execute();
        return id;
      };
      const tenPercent = await coupon({ percent_off: 10, duration: 'forever' });
      const twoHundredOff = await coupon({ amount_off_minor: 200, duration: 'forever' });
      const oneOff = await coupon({ amount_off_minor: 1, duration: 'forever' });
      const firstHalf = await coupon({ percent_off: 50, duration: 'once' });

      const subscriptions: Array<{
        plan: { id: string };
        seats: number;
        status: 'active' | 'past_due' | 'cancelled';
        coupon: string | null;
      }> = [
        // 1,499 less 10% (149.9 → 149 off) = 1,350 a seat × 5 seats = 6,750.
        { plan: perSeat, seats: 5, status: 'active', coupon: tenPercent },
        // Past due is still billed: (1,499 − 200) × 3 = 3,897.
        { plan: perSeat, seats: 3, status: 'past_due', coupon: twoHundredOff },
        // Its first-charge coupon is spent: 999.
        { plan: personal, seats: 1, status: 'active', coupon: firstHalf },
        // Yearly (10,001 − 1) ÷ 12 = 833.33 → 833.
        { plan: yearly, seats: 1, status: 'active', coupon: oneOff },
        // Canceled: not billed, not counted.
        { plan: perSeat, seats: 4, status: 'cancelled', coupon: null },
      ];
      for (const [index, seed] of subscriptions.entries()) {
        const id = randomUUID();
        await s.app.db
          .insertInto('subscriptions')
          .values({
            id,
            user_id: null,
            plan_id: seed.plan.id,
            license_id: null,
            provider: 'sandbox',
            provider_subscription_id: `sub_figures_${index}_${id.slice(0, 8)}`,
            status: seed.status,
            anchor_at: null,
            anchor_cycle: 0,
            cycles: 2,
            current_period_start: null,
            current_period_end: null,
            cancel_at_period_end: 0,
            cancel_requested_at: null,
            ended_at: seed.status === 'cancelled' ? iso(now - DAY_MS) : null,
            grace_ends_at: null,
            next_retry_at: null,
            failed_attempts: 0,
            payment_method: null,
            sandbox_card: null,
            credit_minor: 0,
            version: 0,
            coupon_id: seed.coupon,
            seats: seed.seats,
            created_at: iso(now - 40 * DAY_MS),
            updated_at: iso(now - 40 * DAY_MS),
          } as never)
          .execute();
      }

      // ₹14,999 paid today, ₹5,000 of it refunded and ₹2,000 more pending (not refunded yet).
      const partly = await insertPayment(s, { amount: 14_999, currency: 'INR', status: 'paid', paidAt: now });
      await insertRefund(s, partly, { amount: 5_000, currency: 'INR', status: 'processed' });
      await insertRefund(s, partly, { amount: 2_000, currency: 'INR', status: 'pending' });
      // ₹2,500 paid three days ago, refunded in full in two parts.
      const whole = await insertPayment(s, {
        amount: 2_500,
        currency: 'INR',
        status: 'paid',
        paidAt: now - 3 * DAY_MS,
      });
      await insertRefund(s, whole, { amount: 1_000, currency: 'INR', status: 'processed' });
      await insertRefund(s, whole, { amount: 1_500, currency: 'INR', status: 'processed' });
      // A plan change its credit paid for: ₹0 "paid" today, no payment at all.
      const nothing = await insertPayment(s, { amount: 0, currency: 'INR', status: 'paid', paidAt: now });
      // $10 forty days ago; a failed ₹9,999 never counts.
      await insertPayment(s, { amount: 1_000, currency: 'USD', status: 'paid', paidAt: now - 40 * DAY_MS });
      await insertPayment(s, { amount: 9_999, currency: 'INR', status: 'failed', paidAt: null });

      const response = await s.api({ path: '/admin/dashboard', token: admin.token });
      expect(response.statusCode, response.body).toBe(200);
      const after = dashboardStatsSchema.parse(response.json());

      expect(after.subscriptions.mrr).toEqual([
        { currency: 'INR', amount_minor: 6_750 + 3_897 + 999 + 833, subscriptions: 4 },
      ]);
      expect(after.subscriptions.mrr[0]?.amount_minor).toBe(12_479);

      expect(after.revenue.totals).toEqual([
        // Gross 14,999 + 2,500 = 17,499; refunded 5,000 + 2,500 = 7,500; net 9,999; the ₹0 one left out.
        { currency: 'INR', amount_minor: 9_999, gross_minor: 17_499, refunded_minor: 7_500, payments: 2 },
        { currency: 'USD', amount_minor: 1_000, gross_minor: 1_000, refunded_minor: 0, payments: 1 },
      ]);
      const day = (ms: number) => iso(ms).slice(0, 10);
      expect(after.revenue.by_day.find((entry) => entry.period === day(now))?.totals).toEqual([
        { currency: 'INR', amount_minor: 9_999, gross_minor: 14_999, refunded_minor: 5_000, payments: 1 },
      ]);
      expect(after.revenue.by_day.find((entry) => entry.period === day(now - 3 * DAY_MS))?.totals).toEqual([
        { currency: 'INR', amount_minor: 0, gross_minor: 2_500, refunded_minor: 2_500, payments: 1 },
      ]);
      const monthly = after.revenue.by_month.flatMap((entry) => entry.totals);
      const sum = (key: 'amount_minor' | 'gross_minor' | 'refunded_minor', currency: string) =>
        monthly
          .filter((total) => total.currency === currency)
          .reduce((total, entry) => total + entry[key], 0);
      expect([sum('gross_minor', 'INR'), sum('refunded_minor', 'INR'), sum('amount_minor', 'INR')]).toEqual([
        17_499, 7_500, 9_999,
      ]);

      // Payments say what was refunded of them: processed refunds only.
      const listed = async (id: string) => {
        const page = await s.api({
          path: `/payments/admin/payments?search=${encodeURIComponent(`order_figures_${id}`)}`,
          token: admin.token,
        });
        expect(page.statusCode, page.body).toBe(200);
        return adminPaymentListSchema.parse(page.json()).data.find((payment) => payment.id === id);
      };
      expect(await listed(partly)).toMatchObject({ amount: 14_999, refunded: 5_000, status: 'paid' });
      expect(await listed(whole)).toMatchObject({ amount: 2_500, refunded: 2_500 });
      expect(await listed(nothing)).toMatchObject({ amount: 0, refunded: 0 });

      // A ₹0 charge has nothing to refund: a clear 409, and no refund written.
      const refused = await s.api({
        method: 'POST',
        path: `/payments/admin/payments/${nothing}/refunds`,
        token: admin.token,
        body: { license_action: 'keep' },
      });
      expectApiError(refused, 409, 'payment_not_charged');
      const written = await s.app.db
        .selectFrom('refunds')
        .select('id')
        .where('payment_id', '=', nothing)
        .execute();
      expect(written).toEqual([]);
    });
  },
);
