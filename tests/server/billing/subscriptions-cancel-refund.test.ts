import { afterEach, beforeEach, expect, it } from 'vitest';
import { subscriptionSchema } from '../../../src/shared/api/subscriptions.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { type Member, member } from '../helpers/license-helpers.js';
import {
  chargesOf,
  later,
  licenseRow,
  subscribe,
  subscriptionCall,
} from '../helpers/subscription-helpers.js';

const refundsOf = (s: TestServer, paymentId: string) =>
  s.app.db
    .selectFrom('refunds')
    .leftJoin('invoices', 'invoices.refund_id', 'refunds.id')
    .selectAll('refunds')
    .select(['invoices.number as credit_note'])
    .where('refunds.payment_id', '=', paymentId)
    .execute();

const shown = async (s: TestServer, who: Member, id: string) => {
  const response = await s.api({ method: 'GET', path: `/subscriptions/${id}`, token: who.token });
  expect(response.statusCode, response.body).toBe(200);
  return subscriptionSchema.parse(response.json());
};

/** Subscribes, lets the first renewal be charged by the scheduler, and moves on `afterMs` past it. */
async function renewedThen(s: TestServer, who: Member, afterMs: number) {
  const { subscription, license } = await subscribe(s, who);
  const end = Date.parse(subscription.current_period_end as string);
  await later(s, who, end - s.clock.now().getTime() + 60_000);
  await s.app.scheduler.runOnce();
  const renewal = (await chargesOf(s, subscription.id)).at(-1);
  expect(renewal).toMatchObject({ status: 'paid', period_start: subscription.current_period_end });
  s.clock.advance(afterMs);
  return { subscription, license, renewal: renewal as NonNullable<typeof renewal> };
}

describeOnEveryDatabase(
  'subscriptions: cancelling now refunds the unused part of the paid period',
  (server) => {
    // The refund is worked out to the millisecond: the clock moves only when a test moves it.
    beforeEach(() => server().clock.freeze());
    afterEach(() => server().clock.resume());

    it('cancelled now seconds after a renewal charge: the unused part is refunded with a credit note, as the subscription said beforehand and the mail says after', async () => {
      const s = server();
      const buyer = await member(s);
      const { subscription, license, renewal } = await renewedThen(s, buyer, 5_000);
      const start = Date.parse(renewal.period_start as string);
      const end = Date.parse(renewal.period_end as string);
      const amount = Number(renewal.amount_minor);
      const expected = Math.floor((amount * (end - s.clock.now().getTime())) / (end - start));
      expect(expected).toBeGreaterThan(0);
      expect(expected).toBeLessThan(amount);

      // What the cancel dialog shows before the customer confirms.
      expect((await shown(s, buyer, subscription.id)).cancel_now_refund_minor).toBe(expected);

      const cancelled = await subscriptionCall(s, buyer, 'POST', `/subscriptions/${subscription.id}/cancel`, {
        at: 'now',
      });
      expect(cancelled).toMatchObject({ status: 'cancelled', cancel_now_refund_minor: 0 });
      const refunds = await refundsOf(s, renewal.id);
      expect(refunds).toHaveLength(1);
      expect(refunds[0]).toMatchObject({
        amount_minor: expected,
        status: 'processed',
        license_action: 'keep',
      });
      expect(refunds[0]?.credit_note).toBeTruthy();
      expect((await licenseRow(s, license.license_id)).expires_at).toBe(s.clock.now().toISOString());
      const mail = await s.lastMailTo(buyer.email);
      expect(mail.subject).toContain('is canceled');
      expect(mail.text).toContain('is refunded to the payment method you paid with');

      // Cancelled again: refused, and nothing more is refunded.
      const again = await s.api({
        method: 'POST',
        path: `/subscriptions/${subscription.id}/cancel`,
        token: buyer.token,
        body: { at: 'now' },
      });
      expect(again.statusCode).toBe(409);
      expect(await refundsOf(s, renewal.id)).toHaveLength(1);
    });

    it('cancelled now halfway through the period: half of the charge comes back', async () => {
      const s = server();
      const buyer = await member(s);
      const { subscription } = await subscribe(s, buyer);
      const [charge] = await chargesOf(s, subscription.id);
      const start = Date.parse(charge?.period_start as string);
      const end = Date.parse(charge?.period_end as string);
      await later(s, buyer, start + (end - start) / 2 - s.clock.now().getTime());
      const amount = Number(charge?.amount_minor);
      await subscriptionCall(s, buyer, 'POST', `/subscriptions/${subscription.id}/cancel`, { at: 'now' });
      const refunds = await refundsOf(s, charge?.id as string);
      expect(refunds.map((refund) => Number(refund.amount_minor))).toEqual([Math.floor(amount / 2)]);
    });

    it('cancelled at the end of the period: nothing is refunded, the license runs to that end', async () => {
      const s = server();
      const buyer = await member(s);
      const { subscription } = await subscribe(s, buyer);
      const [charge] = await chargesOf(s, subscription.id);
      const before = await shown(s, buyer, subscription.id);
      expect(before.cancel_now_refund_minor).toBeGreaterThan(0);
      const cancelled = await subscriptionCall(s, buyer, 'POST', `/subscriptions/${subscription.id}/cancel`, {
        at: 'period_end',
      });
      expect(cancelled.cancel_at_period_end).toBe(true);
      expect(await refundsOf(s, charge?.id as string)).toHaveLength(0);
    });

    it('a subscription past due has no paid period left: cancelling it now refunds nothing', async () => {
      const s = server();
      const buyer = await member(s);
      const { subscription } = await subscribe(s, buyer);
      await subscriptionCall(s, buyer, 'PUT', `/subscriptions/${subscription.id}/payment-method`, {
        sandbox_card: 'declines',
      });
      await later(
        s,
        buyer,
        Date.parse(subscription.current_period_end as string) - s.clock.now().getTime() + 60_000,
      );
      await s.app.scheduler.runOnce();
      const due = await shown(s, buyer, subscription.id);
      expect(due).toMatchObject({ status: 'past_due', cancel_now_refund_minor: 0 });
      await subscriptionCall(s, buyer, 'POST', `/subscriptions/${subscription.id}/cancel`, { at: 'now' });
      const charges = await chargesOf(s, subscription.id);
      for (const charge of charges) expect(await refundsOf(s, charge.id)).toHaveLength(0);
    });
  },
);
