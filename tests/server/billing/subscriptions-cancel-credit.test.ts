import { afterEach, beforeEach, expect, it } from 'vitest';
import {
  planChangeQuoteSchema,
  type Subscription,
  subscriptionSchema,
} from '../../../src/shared/api/subscriptions.js';
import { formatMoney } from '../../../src/server/platform/mail/formatting.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { signInAsAdmin } from '../helpers/admin-helpers.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import { type Member, member, planByCode } from '../helpers/license-helpers.js';
import {
  chargesOf,
  DAY,
  later,
  subscribe,
  subscriptionCall,
  subscriptionRow,
} from '../helpers/subscription-helpers.js';

const refundsOf = (s: TestServer, paymentId: string) =>
  s.app.db
    .selectFrom('refunds')
    .leftJoin('invoices', 'invoices.refund_id', 'refunds.id')
    .selectAll('refunds')
    .select(['invoices.number as credit_note', 'invoices.kind as credit_note_kind'])
    .where('refunds.payment_id', '=', paymentId)
    .orderBy('refunds.created_at')
    .execute();

const shown = async (s: TestServer, who: Member, id: string): Promise<Subscription> => {
  const response = await s.api({ method: 'GET', path: `/subscriptions/${id}`, token: who.token });
  expect(response.statusCode, response.body).toBe(200);
  return subscriptionSchema.parse(response.json());
};

const cancellationMails = async (s: TestServer, email: string) =>
  (await s.outbox()).filter(
    (mail) => mail.to.includes(email) && / subscription is cancell?ed$/.test(mail.subject),
  );

/**
 * Subscribes to Pro yearly, and a month later moves to Pro monthly through a kept quote: the unused
 * part of the year pays the month and what is left over is kept as credit.
 */
async function downgraded(s: TestServer, who: Member) {
  const monthly = await planByCode(s, 'pro-monthly');
  const { subscription } = await subscribe(s, who, 'pro-yearly');
  const [yearlyCharge] = await chargesOf(s, subscription.id);
  if (!yearlyCharge) throw new Error('the yearly subscription has no charge');
  await later(s, who, 30 * DAY);
  const path = `/subscriptions/${subscription.id}`;
  const quoted = await s.api({
    method: 'POST',
    path: `${path}/plan/quote`,
    token: who.token,
    body: { plan_id: monthly.id },
  });
  expect(quoted.statusCode, quoted.body).toBe(200);
  const quote = planChangeQuoteSchema.parse(quoted.json());
  expect(quote.due_now_minor).toBe(0);
  const moved = await subscriptionCall(s, who, 'POST', `${path}/plan`, {
    plan_id: monthly.id,
    quote_id: quote.id,
  });
  expect(moved.plan.id).toBe(monthly.id);
  const credit = quote.balance_after_minor;
  expect(credit).toBeGreaterThan(0);
  expect(moved).toMatchObject({ credit_minor: credit, cancel_credit_refund_minor: credit });
  return { subscription: moved, yearlyCharge, credit, path };
}

describeOnEveryDatabase(
  'subscriptions: cancelling refunds the credit kept from a move to a cheaper plan',
  (server) => {
    // The credit is worked out to the millisecond: the clock moves only when a test moves it.
    beforeEach(() => server().clock.freeze());
    afterEach(() => server().clock.resume());

    it('cancelled at period end: the whole credit is refunded from the charge it came from, with a credit note, as the subscription said beforehand and the mail says after', async () => {
      const s = server();
      const buyer = await member(s);
      const { subscription, yearlyCharge, credit, path } = await downgraded(s, buyer);
      const before = await shown(s, buyer, subscription.id);
      expect(before).toMatchObject({ credit_minor: credit, cancel_credit_refund_minor: credit });
      expect(before.next_charge?.amount_minor).toBe(0);

      const cancelled = await subscriptionCall(s, buyer, 'POST', `${path}/cancel`, { at: 'period_end' });
      expect(cancelled).toMatchObject({
        status: 'active',
        cancel_at_period_end: true,
        next_charge: null,
        credit_minor: 0,
        cancel_credit_refund_minor: 0,
      });
      const refunds = await refundsOf(s, yearlyCharge.id);
      expect(refunds).toHaveLength(1);
      expect(refunds[0]).toMatchObject({
        amount_minor: credit,
        status: 'processed',
        license_action: 'keep',
        credit_note_kind: 'credit_note',
      });
      expect(refunds[0]?.credit_note).toBeTruthy();
      const mail = await s.lastMailTo(buyer.email);
      expect(mail.subject).toMatch(/ subscription is cancell?ed$/);
      expect(mail.text).toContain(
        `The credit kept from your earlier move to a cheaper plan, ${formatMoney(credit, 'INR')}, is refunded`,
      );
      expect(mail.text).not.toContain('could not be refunded');

      // Asked again: nothing more is refunded, and no second mail.
      await subscriptionCall(s, buyer, 'POST', `${path}/cancel`, { at: 'period_end' });
      expect(await refundsOf(s, yearlyCharge.id)).toHaveLength(1);
      expect(await cancellationMails(s, buyer.email)).toHaveLength(1);

      // Resumed, it renews at the full price: the credit went back to the card.
      const resumed = await subscriptionCall(s, buyer, 'POST', `${path}/resume`);
      expect(resumed).toMatchObject({
        credit_minor: 0,
        next_charge: { amount_minor: subscription.plan.price_minor },
      });
    });

    it('cancelled now: the credit is refunded too, and the license ends', async () => {
      const s = server();
      const buyer = await member(s);
      const { yearlyCharge, credit, path } = await downgraded(s, buyer);
      const cancelled = await subscriptionCall(s, buyer, 'POST', `${path}/cancel`, { at: 'now' });
      expect(cancelled).toMatchObject({ status: 'cancelled', credit_minor: 0 });
      expect(
        (await refundsOf(s, yearlyCharge.id)).map((refund) => [refund.amount_minor, refund.status]),
      ).toEqual([[credit, 'processed']]);
      expect((await s.lastMailTo(buyer.email)).text).toContain(formatMoney(credit, 'INR'));
    });

    it('two cancellations at once refund the credit once and mail once', async () => {
      const s = server();
      const buyer = await member(s);
      const { subscription, yearlyCharge, credit, path } = await downgraded(s, buyer);
      const cancel = (at: 'period_end' | 'now') =>
        s.api({ method: 'POST', path: `${path}/cancel`, token: buyer.token, body: { at } });
      const answers = await Promise.all([cancel('period_end'), cancel('period_end'), cancel('period_end')]);
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
      const refunds = await refundsOf(s, yearlyCharge.id);
      expect(refunds.map((refund) => Number(refund.amount_minor))).toEqual([credit]);
      expect(await cancellationMails(s, buyer.email)).toHaveLength(1);
      expect(await subscriptionRow(s, subscription.id)).toMatchObject({
        cancel_at_period_end: 1,
        credit_minor: 0,
      });
    });

    it('cancelled now twice at once: one ends it and refunds the credit once, the other is refused', async () => {
      const s = server();
      const buyer = await member(s);
      const { yearlyCharge, credit, path } = await downgraded(s, buyer);
      const cancel = () =>
        s.api({ method: 'POST', path: `${path}/cancel`, token: buyer.token, body: { at: 'now' } });
      const answers = await Promise.all([cancel(), cancel()]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      const refused = answers.find((answer) => answer.statusCode === 409);
      if (refused) expectApiError(refused, 409, 'subscription_ended');
      expect((await refundsOf(s, yearlyCharge.id)).map((refund) => Number(refund.amount_minor))).toEqual([
        credit,
      ]);
      expect(await cancellationMails(s, buyer.email)).toHaveLength(1);
    });

    it('credit its charge can no longer take back (refunded by an administrator) is said before cancelling, kept on the subscription, and named in the mail', async () => {
      const s = server();
      const buyer = await member(s);
      const { subscription, yearlyCharge, credit, path } = await downgraded(s, buyer);
      const admin = await signInAsAdmin(s);
      // Leave only half the credit refundable on the charge it came from.
      const refundable = Math.floor(credit / 2);
      const kept = credit - refundable;
      const byAdmin = await s.api({
        method: 'POST',
        path: `/payments/admin/payments/${yearlyCharge.id}/refunds`,
        token: admin.token,
        body: {
          amount: Number(yearlyCharge.amount_minor) - refundable,
          license_action: 'keep',
          reason: 'Goodwill',
        },
      });
      expect(byAdmin.statusCode, byAdmin.body).toBe(201);

      expect(await shown(s, buyer, subscription.id)).toMatchObject({
        credit_minor: credit,
        cancel_credit_refund_minor: refundable,
      });
      const cancelled = await subscriptionCall(s, buyer, 'POST', `${path}/cancel`, { at: 'period_end' });
      expect(cancelled).toMatchObject({ credit_minor: kept, cancel_credit_refund_minor: 0 });
      const refunds = await refundsOf(s, yearlyCharge.id);
      expect(refunds.map((refund) => [Number(refund.amount_minor), refund.status])).toEqual([
        [Number(yearlyCharge.amount_minor) - refundable, 'processed'],
        [refundable, 'processed'],
      ]);
      const mail = await s.lastMailTo(buyer.email);
      expect(mail.text).toContain(`${formatMoney(refundable, 'INR')}, is refunded`);
      expect(mail.text).toContain(
        `${formatMoney(kept, 'INR')} of credit kept from an earlier plan change could not be refunded`,
      );

      // Resumed before the end, what was kept is taken off the next charge again.
      const resumed = await subscriptionCall(s, buyer, 'POST', `${path}/resume`);
      expect(resumed).toMatchObject({
        credit_minor: kept,
        next_charge: { amount_minor: Math.max(subscription.plan.price_minor - kept, 0) },
      });
    });
  },
);
