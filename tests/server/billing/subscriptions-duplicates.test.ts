import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import { describeOnEveryDatabase, type TestServer, WEB_API_KEY } from '../../support/test-server.js';
import { type Member, member, planByCode } from '../helpers/license-helpers.js';
import { paidCheckout, subscribe } from '../helpers/subscription-helpers.js';

/** Verifies on the test server, or on another instance of it when `on` is given. */
async function verify(s: TestServer, who: Member, answer: unknown, on?: FastifyInstance) {
  const response = on
    ? await on.inject({
        method: 'POST',
        url: '/api/v1/subscriptions/verify',
        headers: { 'x-api-key': WEB_API_KEY, authorization: `Bearer ${who.token}` },
        payload: answer as Record<string, unknown>,
      })
    : await s.api({ method: 'POST', path: '/subscriptions/verify', token: who.token, body: answer });
  return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
}

/** Everything the buyer holds of the plan: live subscriptions, licenses, payments and their refunds. */
async function holdings(s: TestServer, who: Member, planCode = 'pro-monthly') {
  const plan = await planByCode(s, planCode);
  const db = s.app.db;
  const subscriptions = await db
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', who.id)
    .where('plan_id', '=', plan.id)
    .execute();
  const licenses = await db
    .selectFrom('licenses')
    .selectAll()
    .where('user_id', '=', who.id)
    .where('plan_id', '=', plan.id)
    .execute();
  const payments = await db
    .selectFrom('payments')
    .selectAll()
    .where('user_id', '=', who.id)
    .where('plan_id', '=', plan.id)
    .execute();
  const refunds = await db
    .selectFrom('refunds')
    .leftJoin('invoices', 'invoices.refund_id', 'refunds.id')
    .selectAll('refunds')
    .select(['invoices.number as credit_note'])
    .where(
      'refunds.payment_id',
      'in',
      payments.map((payment) => payment.id),
    )
    .execute();
  return {
    live: subscriptions.filter((row) => ['active', 'past_due', 'suspended'].includes(row.status)),
    subscriptions,
    licenses,
    payments,
    refunds,
  };
}

/** The one rule after any race of two paid checkouts: one subscription and license, the other payment refunded and told. */
async function expectOneKeptOneRefunded(s: TestServer, who: Member) {
  const held = await holdings(s, who);
  expect(held.live).toHaveLength(1);
  expect(held.licenses).toHaveLength(1);
  expect(held.live[0]?.license_id).toBe(held.licenses[0]?.id);
  // Both payments are recorded as paid (the money was taken), and the second one is refunded in full.
  expect(held.payments.map((payment) => payment.status)).toEqual(['paid', 'paid']);
  const refused = held.subscriptions.find((row) => row.id !== held.live[0]?.id);
  expect(refused).toMatchObject({ status: 'cancelled', license_id: null });
  const refundedPayment = held.payments.find((payment) => payment.subscription_id === refused?.id);
  expect(held.refunds).toHaveLength(1);
  expect(held.refunds[0]).toMatchObject({
    payment_id: refundedPayment?.id,
    amount_minor: refundedPayment?.amount_minor,
    status: 'processed',
    license_action: 'keep',
  });
  expect(held.refunds[0]?.credit_note).toBeTruthy();
  const told = (await s.outbox()).filter(
    (mail) => mail.to.includes(who.email) && mail.subject.includes('second Pro'),
  );
  expect(told).toHaveLength(1);
  expect(told[0]?.text).toContain('refunded in full');
  return held;
}

describeOnEveryDatabase(
  'subscriptions: one plan subscribed once, however many checkouts are paid',
  (server) => {
    it('two tabs: two checkouts of one plan both paid and verified at once leave one subscription and one license; the other payment is refunded in full with a credit note, answered 409 and mailed', async () => {
      const s = server();
      const buyer = await member(s);
      const [one, other] = [await paidCheckout(s, buyer), await paidCheckout(s, buyer)];
      const answers = await Promise.all([verify(s, buyer, one.answer), verify(s, buyer, other.answer)]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const refusal = answers.find((answer) => answer.status === 409)?.body;
      expect(refusal).toMatchObject({ code: 'already_subscribed' });
      expect(String(refusal?.['message'])).toContain('refunded in full');
      await expectOneKeptOneRefunded(s, buyer);

      // The refused tab verifying again (a replay) gets the same answer and refunds nothing more.
      const refusedAnswer = answers[0]?.status === 409 ? one.answer : other.answer;
      const replay = await verify(s, buyer, refusedAnswer);
      expect(replay.status).toBe(409);
      expect(replay.body).toMatchObject({ code: 'already_subscribed' });
      await expectOneKeptOneRefunded(s, buyer);
    });

    it('a checkout paid after the plan was subscribed in another tab is refused at verify, and the subscription list shows one live subscription', async () => {
      const s = server();
      const buyer = await member(s);
      const late = await paidCheckout(s, buyer);
      await subscribe(s, buyer);
      const answer = await verify(s, buyer, late.answer);
      expect(answer.status).toBe(409);
      expect(answer.body).toMatchObject({ code: 'already_subscribed' });
      await expectOneKeptOneRefunded(s, buyer);
      const list = await s.api({ method: 'GET', path: '/subscriptions', token: buyer.token });
      const rows = list.json<{ data: { status: string }[] }>().data;
      expect(rows.filter((row) => row.status === 'active')).toHaveLength(1);
    });

    it('two instances on one database, each verifying one of the two paid checkouts at once: one subscription, the other refunded', async () => {
      const s = server();
      // The second instance: its own app and connection pool on the same database and clock.
      const second = await buildApp(s.config, { clock: s.clock, logger: false });
      try {
        for (let round = 0; round < 3; round++) {
          const buyer = await member(s);
          const [one, other] = [await paidCheckout(s, buyer), await paidCheckout(s, buyer)];
          const answers = await Promise.all([
            verify(s, buyer, one.answer),
            verify(s, buyer, other.answer, second),
          ]);
          expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
          // The instance that refused may be the second: its mail goes out from its own queue.
          await second.mailOutbox.drain();
          await expectOneKeptOneRefunded(s, buyer);
        }
      } finally {
        await second.close();
      }
    });

    it('different plans are not duplicates: a Pro and a Pro yearly subscription both start', async () => {
      const s = server();
      const buyer = await member(s);
      const monthly = await paidCheckout(s, buyer, 'pro-monthly');
      const yearly = await paidCheckout(s, buyer, 'pro-yearly');
      const answers = await Promise.all([verify(s, buyer, monthly.answer), verify(s, buyer, yearly.answer)]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      for (const code of ['pro-monthly', 'pro-yearly']) {
        const held = await holdings(s, buyer, code);
        expect(held.live).toHaveLength(1);
        expect(held.refunds).toHaveLength(0);
      }
    });
  },
);
