import { describe, expect, it } from 'vitest';
import {
  subscriptionCheckoutSchema,
  subscriptionDetailSchema,
  subscriptionListSchema,
} from '../../../src/shared/api/subscriptions.js';
import { utc } from '../../../src/shared/dates.js';
import { unusedCredit } from '../../../src/server/billing/subscriptions/billing-periods.js';
import { describeOnEveryDatabase } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import {
  activate,
  expectActivation,
  expectRefusal,
  machine,
  member,
  planByCode,
  statusOf,
} from '../helpers/license-helpers.js';
import {
  chargesOf,
  DAY,
  later,
  licenseRow,
  subscribe,
  subscriptionCall,
  subscriptionRow,
} from '../helpers/subscription-helpers.js';

describeOnEveryDatabase('subscriptions: the sandbox lifecycle', (server) => {
  it('subscribing issues a license to the end of the first month; verify again answers the same', async () => {
    const s = server();
    const buyer = await member(s);
    const pro = await planByCode(s, 'pro-monthly');
    const started = s.clock.now();
    const { subscription, license } = await subscribe(s, buyer);

    expect(subscription).toMatchObject({
      status: 'active',
      sandbox: true,
      plan: { id: pro.id, billing_interval: 'month', price_minor: pro.price_minor },
      license_id: license.license_id,
      cancel_at_period_end: false,
      payment_method: 'Sandbox card •••• 4242',
    });
    const periodEnd = subscription.current_period_end as string;
    expect(utc(periodEnd).diff(utc(subscription.current_period_start as string), 'month')).toBe(1);
    expect(Date.parse(periodEnd) - started.getTime()).toBeGreaterThan(27 * DAY);
    expect(subscription.next_charge).toEqual({
      at: periodEnd,
      amount_minor: pro.price_minor,
      currency: 'INR',
    });
    expect(license).toMatchObject({ status: 'active', expires_at: periodEnd });
    expect((await licenseRow(s, license.license_id)).subscription_id).toBe(subscription.id);

    const charges = await chargesOf(s, subscription.id);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({
      status: 'paid',
      kind: 'subscription',
      amount_minor: pro.price_minor,
      period_end: periodEnd,
      provider_order_id: `${subscription.provider_subscription_id}#1`,
    });

    const list = await s.api({ path: '/subscriptions', token: buyer.token });
    expect(subscriptionListSchema.parse(list.json()).data.map((row) => row.id)).toEqual([subscription.id]);
    // Subscribing twice to the same plan is refused: the customer changes the one they have.
    expectApiError(
      await s.api({ method: 'POST', path: '/subscriptions', token: buyer.token, body: { plan_id: pro.id } }),
      409,
      'already_subscribed',
    );
  });

  it('a first charge declined at checkout is in the history as failed; paying afterwards starts the subscription on the same charge', async () => {
    const s = server();
    const buyer = await member(s);
    const pro = await planByCode(s, 'pro-monthly');
    const opened = await s.api({
      method: 'POST',
      path: '/subscriptions',
      token: buyer.token,
      body: { plan_id: pro.id },
    });
    const { subscription, subscription_id: providerId } = subscriptionCheckoutSchema.parse(opened.json());
    const checkout = (outcome: 'pay' | 'decline') =>
      s.api({
        method: 'POST',
        path: `/payments/sandbox/subscriptions/${providerId}/complete`,
        token: buyer.token,
        body: { outcome },
      });
    expect((await checkout('decline')).json()).toMatchObject({ error: { reason: 'payment_failed' } });
    expect((await chargesOf(s, subscription.id)).map((charge) => charge.status)).toEqual(['failed']);
    expect(await subscriptionRow(s, subscription.id)).toMatchObject({
      status: 'pending',
      cycles: 0,
      failed_attempts: 0,
    });

    const paid = await checkout('pay');
    const verified = await s.api({
      method: 'POST',
      path: '/subscriptions/verify',
      token: buyer.token,
      body: paid.json(),
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const after = await subscriptionRow(s, subscription.id);
    expect(after).toMatchObject({ status: 'active', cycles: 1 });
    const charges = await chargesOf(s, subscription.id);
    expect(charges.map((charge) => [charge.status, charge.period_end])).toEqual([
      ['paid', after.current_period_end],
    ]);
  });

  it('renewals are charged when the period ends, once however often the scheduler runs', async () => {
    const s = server();
    const buyer = await member(s);
    const { subscription, license } = await subscribe(s, buyer);
    const firstEnd = subscription.current_period_end as string;

    await later(s, buyer, Date.parse(firstEnd) - s.clock.now().getTime() + 60_000);
    expect(await s.app.scheduler.runOnce()).toBe(true);
    expect(await s.app.scheduler.runOnce()).toBe(true);

    const row = await subscriptionRow(s, subscription.id);
    expect(row).toMatchObject({ status: 'active', cycles: 2, current_period_start: firstEnd });
    const secondEnd = utc(subscription.current_period_start as string)
      .add(2, 'month')
      .toISOString();
    expect(row.current_period_end).toBe(secondEnd);
    expect((await licenseRow(s, license.license_id)).expires_at).toBe(secondEnd);
    expect((await chargesOf(s, subscription.id)).map((charge) => [charge.status, charge.period_end])).toEqual(
      [
        ['paid', firstEnd],
        ['paid', secondEnd],
      ],
    );
  });

  it('a declined renewal: grace (license valid) → retries → suspended with the reason → new card restores it', async () => {
    const s = server();
    const buyer = await member(s);
    const { subscription, license } = await subscribe(s, buyer);
    const hw = machine();
    expectActivation(await activate(s, buyer.token, license.license_key, hw), 201);
    await subscriptionCall(s, buyer, 'PUT', `/subscriptions/${subscription.id}/payment-method`, {
      sandbox_card: 'declines',
    });

    const firstEnd = subscription.current_period_end as string;
    s.clock.freeze();
    await later(s, buyer, Date.parse(firstEnd) - s.clock.now().getTime() + 60_000);
    await s.app.scheduler.runOnce();
    const pastDue = await subscriptionRow(s, subscription.id);
    // Counted from when the failure was found: here a minute after the period ended.
    const graceEnd = utc(firstEnd).add(60, 'second').add(7, 'day').toISOString();
    expect(pastDue).toMatchObject({ status: 'past_due', failed_attempts: 1, grace_ends_at: graceEnd });
    expect((await licenseRow(s, license.license_id)).expires_at).toBe(graceEnd);
    expect((await statusOf(s, license.license_key, hw)).statusCode).toBe(200);
    const failedMail = await s.lastMailTo(buyer.email);
    expect(failedMail.subject).toMatch(/^Payment failed for your Pro.* subscription$/);
    expect(failedMail.text).toContain('/subscriptions');

    // The retries on days 1, 3 and 5 fail too; the license stays valid until the grace period ends.
    for (const day of [1, 3, 5]) {
      const retryAt = Date.parse(pastDue.grace_ends_at as string) - 7 * DAY + day * DAY;
      s.clock.advance(retryAt - s.clock.now().getTime() + 60_000);
      await s.app.scheduler.runOnce();
      expect((await subscriptionRow(s, subscription.id)).status).toBe('past_due');
    }
    expect((await subscriptionRow(s, subscription.id)).failed_attempts).toBe(4);
    // One mail for the failure (the retries say nothing new), one two days before the grace period ends.
    const subjects = (await s.outbox())
      .filter((mail) => mail.to.includes(buyer.email))
      .map((mail) => mail.subject);
    expect(subjects.filter((subject) => subject.startsWith('Payment failed'))).toHaveLength(1);
    expect(subjects.filter((subject) => / will be suspended on /.test(subject))).toHaveLength(1);
    expect((await statusOf(s, license.license_key, hw)).statusCode).toBe(200);

    await later(s, buyer, Date.parse(graceEnd) - s.clock.now().getTime() + 60_000);
    await s.app.scheduler.runOnce();
    expect((await subscriptionRow(s, subscription.id)).status).toBe('suspended');
    const refusal = expectRefusal(
      await statusOf(s, license.license_key, hw),
      403,
      'license_suspended',
      'suspended',
    );
    expect(refusal.message).toMatch(
      /payment failed and the grace period ended on .* Update the payment method/,
    );
    expect((await s.lastMailTo(buyer.email)).subject).toMatch(/^Your Pro.* license is suspended$/);

    const restored = await subscriptionCall(
      s,
      buyer,
      'PUT',
      `/subscriptions/${subscription.id}/payment-method`,
      {
        sandbox_card: 'succeeds',
      },
    );
    expect(restored).toMatchObject({ status: 'active', grace_ends_at: null, failed_attempts: 0 });
    const secondEnd = utc(subscription.current_period_start as string)
      .add(2, 'month')
      .toISOString();
    expect(restored.current_period_end).toBe(secondEnd);
    expect(await licenseRow(s, license.license_id)).toMatchObject({
      status: 'active',
      suspended_reason: null,
      expires_at: secondEnd,
    });
    expect((await statusOf(s, license.license_key, hw)).statusCode).toBe(200);
  });

  it('after a sandbox run through grace and suspension, the restoring charge pays the current period (a plan change credits it)', async () => {
    const s = server();
    const buyer = await member(s);
    const yearly = await planByCode(s, 'pro-yearly');
    const { subscription } = await subscribe(s, buyer);
    const path = `/subscriptions/${subscription.id}`;
    await subscriptionCall(s, buyer, 'PUT', `${path}/payment-method`, { sandbox_card: 'declines' });
    for (let step = 0; step < 6 && (await subscriptionRow(s, subscription.id)).status !== 'suspended'; step++)
      await subscriptionCall(s, buyer, 'POST', `${path}/sandbox/renew`);
    expect((await subscriptionRow(s, subscription.id)).status).toBe('suspended');
    const suspended = await subscriptionCall(s, buyer, 'PUT', `${path}/payment-method`, {
      sandbox_card: 'declines',
    });
    expect(suspended.next_charge).toMatchObject({ amount_minor: subscription.plan.price_minor });

    const restored = await subscriptionCall(s, buyer, 'PUT', `${path}/payment-method`, {
      sandbox_card: 'succeeds',
    });
    expect(restored.status).toBe('active');
    const paid = (await chargesOf(s, subscription.id)).filter((charge) => charge.status === 'paid');
    expect(paid.at(-1)?.period_end).toBe(restored.current_period_end);
    const quote = await s.api({
      method: 'POST',
      path: `${path}/plan/quote`,
      token: buyer.token,
      body: { plan_id: yearly.id },
    });
    expect(quote.json<{ credit_minor: number }>().credit_minor).toBeGreaterThan(0);
  });

  it('cancel at period end, resume, cancel again: the license runs to the period end and no renewal is charged', async () => {
    const s = server();
    const buyer = await member(s);
    const { subscription, license } = await subscribe(s, buyer);
    const path = `/subscriptions/${subscription.id}`;

    const cancelled = await subscriptionCall(s, buyer, 'POST', `${path}/cancel`, {});
    expect(cancelled).toMatchObject({ status: 'active', cancel_at_period_end: true, next_charge: null });
    const resumed = await subscriptionCall(s, buyer, 'POST', `${path}/resume`);
    expect(resumed).toMatchObject({
      cancel_at_period_end: false,
      next_charge: { amount_minor: expect.any(Number) },
    });
    await subscriptionCall(s, buyer, 'POST', `${path}/cancel`, { at: 'period_end' });

    const end = subscription.current_period_end as string;
    await later(s, buyer, Date.parse(end) - s.clock.now().getTime() + 60_000);
    await s.app.scheduler.runOnce();
    expect(await subscriptionRow(s, subscription.id)).toMatchObject({
      status: 'cancelled',
      ended_at: end,
      cycles: 1,
    });
    expect(await chargesOf(s, subscription.id)).toHaveLength(1);
    expect((await licenseRow(s, license.license_id)).expires_at).toBe(end);
    const subjects = (await s.outbox())
      .filter((mail) => mail.to.includes(buyer.email))
      .map((mail) => mail.subject);
    expect(subjects.filter((subject) => / subscription is canceled$/.test(subject))).toHaveLength(2);
    expect(subjects.at(-1)).toMatch(/^Your Pro.* license has expired$/);
    expectApiError(
      await s.api({ method: 'POST', path: `${path}/resume`, token: buyer.token }),
      409,
      'subscription_not_resumable',
    );
    expectApiError(
      await s.api({ method: 'POST', path: `${path}/cancel`, token: buyer.token, body: {} }),
      409,
      'subscription_ended',
    );
  });

  it('cancel now ends the license at once', async () => {
    const s = server();
    const buyer = await member(s);
    const { subscription, license } = await subscribe(s, buyer);
    const hw = machine();
    expectActivation(await activate(s, buyer.token, license.license_key, hw), 201);
    const ended = await subscriptionCall(s, buyer, 'POST', `/subscriptions/${subscription.id}/cancel`, {
      at: 'now',
    });
    expect(ended).toMatchObject({ status: 'cancelled', next_charge: null });
    s.clock.advance(1000);
    expectRefusal(await statusOf(s, license.license_key, hw), 403, 'license_expired', 'expired');
  });

  it('a plan change credits the unused part of the period, in integer minor units, and refuses a stale quote', async () => {
    const s = server();
    const buyer = await member(s);
    const monthly = await planByCode(s, 'pro-monthly');
    const yearly = await planByCode(s, 'pro-yearly');
    const { subscription, license } = await subscribe(s, buyer);
    const path = `/subscriptions/${subscription.id}`;
    s.clock.freeze();
    await later(s, buyer, 10 * DAY);

    const quoted = await s.api({
      method: 'POST',
      path: `${path}/plan/quote`,
      token: buyer.token,
      body: { plan_id: yearly.id },
    });
    expect(quoted.statusCode, quoted.body).toBe(200);
    const quote = quoted.json<{ credit_minor: number; due_now_minor: number; period_end: string }>();
    const period = {
      start: subscription.current_period_start as string,
      end: subscription.current_period_end as string,
    };
    const credit = unusedCredit(monthly.price_minor, period, s.clock.now());
    expect(quote.credit_minor).toBe(credit);
    expect(Number.isInteger(quote.credit_minor)).toBe(true);
    expect(quote.due_now_minor).toBe(yearly.price_minor - credit);

    expectApiError(
      await s.api({
        method: 'POST',
        path: `${path}/plan`,
        token: buyer.token,
        body: { plan_id: yearly.id, expected_due_now_minor: quote.due_now_minor + 1 },
      }),
      409,
      'quote_changed',
    );
    const changed = await subscriptionCall(s, buyer, 'POST', `${path}/plan`, {
      plan_id: yearly.id,
      expected_due_now_minor: quote.due_now_minor,
    });
    expect(changed).toMatchObject({
      status: 'active',
      plan: { id: yearly.id, billing_interval: 'year' },
      current_period_start: s.clock.now().toISOString(),
      current_period_end: quote.period_end,
    });
    expect(await licenseRow(s, license.license_id)).toMatchObject({
      plan_id: yearly.id,
      expires_at: quote.period_end,
    });
    const charges = await chargesOf(s, subscription.id);
    expect(charges.map((charge) => [charge.status, charge.amount_minor])).toEqual([
      ['paid', monthly.price_minor],
      ['paid', quote.due_now_minor],
    ]);
    const detail = subscriptionDetailSchema.parse((await s.api({ path, token: buyer.token })).json());
    expect(detail.charges).toHaveLength(2);
  });

  it('refuses what cannot be subscribed to, other people’s subscriptions and bad bodies with 4xx JSON', async () => {
    const s = server();
    const buyer = await member(s);
    const stranger = await member(s);
    const base = await planByCode(s, 'base');
    const pro = await planByCode(s, 'pro-monthly');
    const post = (body: unknown, token = buyer.token) =>
      s.api({ method: 'POST', path: '/subscriptions', token, body });
    expectApiError(await post({ plan_id: base.id }), 409, 'plan_not_recurring');
    expectApiError(await post({ plan_id: 'no-such-plan' }), 404, 'plan_not_found');
    expect((await post({ plan_id: pro.id, amount: 1 })).statusCode).toBe(400);
    expect((await post({})).statusCode).toBe(400);
    expectApiError(await s.api({ method: 'POST', path: '/subscriptions' }), 401, 'not_authenticated');

    const { subscription } = await subscribe(s, buyer);
    for (const path of [`/subscriptions/${subscription.id}`]) {
      expectApiError(await s.api({ path, token: stranger.token }), 404, 'subscription_not_found');
    }
    expectApiError(
      await s.api({
        method: 'POST',
        path: `/subscriptions/${subscription.id}/cancel`,
        token: stranger.token,
        body: {},
      }),
      404,
      'subscription_not_found',
    );
    expect(
      (
        await s.api({
          method: 'POST',
          path: `/subscriptions/${subscription.id}/cancel`,
          token: buyer.token,
          body: { at: 'tomorrow' },
        })
      ).statusCode,
    ).toBe(400);
    expectApiError(
      await s.api({ method: 'POST', path: `/subscriptions/${subscription.id}/pay`, token: buyer.token }),
      409,
      'nothing_due',
    );
    expectApiError(
      await s.api({
        method: 'POST',
        path: '/subscriptions/verify',
        token: buyer.token,
        body: {
          razorpay_subscription_id: subscription.provider_subscription_id,
          razorpay_payment_id: 'pay_forged',
          razorpay_signature: 'f'.repeat(64),
        },
      }),
      400,
      'invalid_signature',
    );
  });
});

describe('billing periods', () => {
  it('credits the unused share of a period rounded down, without losing precision on large amounts', () => {
    const period = { start: '2027-01-01T00:00:00.000Z', end: '2027-01-31T00:00:00.000Z' };
    expect(unusedCredit(3000, period, new Date('2027-01-16T00:00:00.000Z'))).toBe(1500);
    expect(unusedCredit(1000, period, new Date('2027-01-11T00:00:00.000Z'))).toBe(666);
    expect(unusedCredit(9_999_999_999, period, new Date('2027-01-01T00:00:00.001Z'))).toBe(9_999_999_995);
    expect(unusedCredit(3000, period, new Date('2027-02-01T00:00:00.000Z'))).toBe(0);
    expect(unusedCredit(3000, period, new Date('2026-12-01T00:00:00.000Z'))).toBe(3000);
  });
});
