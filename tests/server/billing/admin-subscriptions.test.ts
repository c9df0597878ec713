import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { dashboardStatsSchema } from '../../../src/shared/api/admin.js';
import {
  adminSubscriptionDetailSchema,
  adminSubscriptionListSchema,
} from '../../../src/shared/api/admin-subscriptions.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { signInAsAdmin, signInAsUser, type SignedIn } from '../helpers/admin-helpers.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import {
  createPlan,
  DAY_MS,
  licenseRow,
  member,
  type Member,
  planByCode,
} from '../helpers/license-helpers.js';
import { subscribe, subscriptionRow } from '../helpers/subscription-helpers.js';

const list = async (s: TestServer, admin: SignedIn, query = '') => {
  const response = await s.api({ path: `/admin/subscriptions${query}`, token: admin.token });
  expect(response.statusCode, response.body).toBe(200);
  return adminSubscriptionListSchema.parse(response.json());
};

const detail = async (s: TestServer, admin: SignedIn, id: string) => {
  const response = await s.api({ path: `/admin/subscriptions/${id}`, token: admin.token });
  expect(response.statusCode, response.body).toBe(200);
  return adminSubscriptionDetailSchema.parse(response.json());
};

const cancel = (s: TestServer, admin: SignedIn, id: string, body: unknown) =>
  s.api({ method: 'POST', path: `/admin/subscriptions/${id}/cancel`, token: admin.token, body });

/** Opens a subscription and leaves its checkout unpaid. */
async function openOnly(s: TestServer, who: Member, planCode: string): Promise<string> {
  const plan = await planByCode(s, planCode);
  const opened = await s.api({
    method: 'POST',
    path: '/subscriptions',
    token: who.token,
    body: { plan_id: plan.id },
  });
  expect(opened.statusCode, opened.body).toBe(201);
  return opened.json<{ subscription: { id: string } }>().subscription.id;
}

describeOnEveryDatabase('admin: subscriptions list, detail and cancel', (server) => {
  it('lists every customer’s subscriptions with filters, search and paging; pending ones only when asked', async () => {
    const s = server();
    const admin = await signInAsAdmin(s);
    const alice = await member(s);
    const bob = await member(s);
    const monthly = await subscribe(s, alice, 'pro-monthly');
    const yearly = await subscribe(s, bob, 'pro-yearly');
    const pending = await openOnly(s, alice, 'pro-yearly');
    const proMonthly = await planByCode(s, 'pro-monthly');

    const all = await list(s, admin, '?perPage=100');
    const ids = all.data.map((row) => row.id);
    expect(ids).toEqual(expect.arrayContaining([monthly.subscription.id, yearly.subscription.id]));
    expect(ids).not.toContain(pending);
    const aliceRow = all.data.find((row) => row.id === monthly.subscription.id);
    expect(aliceRow).toMatchObject({
      user_id: alice.id,
      user_email: alice.email,
      status: 'active',
      plan: { code: 'pro-monthly', billing_interval: 'month' },
      current_period_end: monthly.subscription.current_period_end,
      next_charge: { at: monthly.subscription.current_period_end, amount_minor: proMonthly.price_minor },
    });

    expect((await list(s, admin, '?status=pending')).data.map((row) => row.id)).toEqual([pending]);
    expect((await list(s, admin, `?userId=${alice.id}`)).data.map((row) => row.id)).toEqual([
      monthly.subscription.id,
    ]);
    expect(
      (await list(s, admin, `?planId=${yearly.subscription.plan.id}&status=active`)).data.map(
        (row) => row.id,
      ),
    ).toContain(yearly.subscription.id);
    expect(
      (await list(s, admin, `?planId=${yearly.subscription.plan.id}`)).data.every(
        (row) => row.plan.id === yearly.subscription.plan.id,
      ),
    ).toBe(true);
    // Search: the customer's e-mail (any case), the provider's subscription id.
    expect(
      (await list(s, admin, `?search=${encodeURIComponent(bob.email.toUpperCase())}`)).data.map(
        (row) => row.id,
      ),
    ).toEqual([yearly.subscription.id]);
    expect(
      (await list(s, admin, `?search=${monthly.subscription.provider_subscription_id}`)).data.map(
        (row) => row.id,
      ),
    ).toEqual([monthly.subscription.id]);

    // Paging: two pages of one, newest first, together the two subscriptions of these customers.
    const first = await list(s, admin, `?search=example.com&perPage=1&page=1`);
    const second = await list(s, admin, `?search=example.com&perPage=1&page=2`);
    expect(first.total).toBe(all.total);
    expect(first.data).toHaveLength(1);
    expect(second.data).toHaveLength(1);
    expect(first.data[0]!.id).not.toBe(second.data[0]!.id);
    expect(first.data[0]!.created_at >= second.data[0]!.created_at).toBe(true);
    const byPeriodEnd = await list(s, admin, '?sort=current_period_end&perPage=100');
    const ends = byPeriodEnd.data.map((row) => row.current_period_end ?? '9999');
    expect(ends).toEqual(ends.toSorted());

    // Bad input is a 400 that names the field; users are refused.
    const badStatus = await s.api({ path: '/admin/subscriptions?status=frozen', token: admin.token });
    expect(expectApiError(badStatus, 400, 'validation_error').message).toMatch(/status/);
    expectApiError(
      await s.api({ path: '/admin/subscriptions?sort=price', token: admin.token }),
      400,
      'validation_error',
    );
    expectApiError(await s.api({ path: '/admin/subscriptions', token: alice.token }), 403, 'admin_required');
    expectApiError(await s.api({ path: '/admin/subscriptions' }), 401, 'not_authenticated');
  });

  it('the detail shows the charges, their invoices and the credit note of a refund; an unknown id is 404', async () => {
    const s = server();
    const admin = await signInAsAdmin(s);
    const buyer = await member(s);
    const { subscription } = await subscribe(s, buyer, 'pro-monthly');

    const before = await detail(s, admin, subscription.id);
    expect(before).toMatchObject({ id: subscription.id, user_email: buyer.email, status: 'active' });
    expect(before.charges).toHaveLength(1);
    const [charge] = before.charges;
    expect(charge).toMatchObject({
      status: 'paid',
      user_email: buyer.email,
      amount: subscription.plan.price_minor,
    });
    expect(before.invoices).toHaveLength(1);
    expect(before.invoices[0]).toMatchObject({ kind: 'invoice', payment_id: charge!.id });
    // The provider's id finds it too.
    expect((await detail(s, admin, subscription.provider_subscription_id)).id).toBe(subscription.id);

    // A refund goes through the payment's own route; its credit note shows on the subscription.
    const refunded = await s.api({
      method: 'POST',
      path: `/payments/admin/payments/${charge!.id}/refunds`,
      token: admin.token,
      body: { amount: 100, license_action: 'keep' },
    });
    expect(refunded.statusCode, refunded.body).toBe(201);
    const after = await detail(s, admin, subscription.id);
    expect(after.invoices.map((invoice) => invoice.kind).toSorted()).toEqual(['credit_note', 'invoice']);
    const note = after.invoices.find((invoice) => invoice.kind === 'credit_note');
    expect(note).toMatchObject({
      total: expect.any(Number),
      corrects: { number: before.invoices[0]!.number },
    });
    expect(note!.total).toBeLessThan(0);

    expectApiError(
      await s.api({ path: `/admin/subscriptions/${randomUUID()}`, token: admin.token }),
      404,
      'subscription_not_found',
    );
    expectApiError(
      await s.api({ path: `/admin/subscriptions/${subscription.id}`, token: buyer.token }),
      403,
      'admin_required',
    );
  });

  it('an administrator cancels at period end, then now: the customer’s rules, audited with the reason', async () => {
    const s = server();
    const admin = await signInAsAdmin(s);
    const buyer = await member(s);
    const { subscription, license } = await subscribe(s, buyer, 'pro-monthly');

    // Bad input first: nothing changes.
    expectApiError(await cancel(s, admin, subscription.id, { at: 'period_end' }), 400, 'validation_error');
    expectApiError(
      await cancel(s, admin, subscription.id, { at: 'tomorrow', reason: 'x' }),
      400,
      'validation_error',
    );
    expectApiError(await cancel(s, admin, randomUUID(), { reason: 'Fraud' }), 404, 'subscription_not_found');
    expectApiError(
      await s.api({
        method: 'POST',
        path: `/admin/subscriptions/${subscription.id}/cancel`,
        token: buyer.token,
        body: { reason: 'Mine' },
      }),
      403,
      'admin_required',
    );
    expect((await subscriptionRow(s, subscription.id)).cancel_at_period_end).toBe(0);

    const atEnd = await cancel(s, admin, subscription.id, { reason: 'Customer asked by phone' });
    expect(atEnd.statusCode, atEnd.body).toBe(200);
    expect(adminSubscriptionDetailSchema.parse(atEnd.json())).toMatchObject({
      status: 'active',
      cancel_at_period_end: true,
      next_charge: null,
    });
    expect((await licenseRow(s, license.license_id)).expires_at).toBe(subscription.current_period_end);

    const now = await cancel(s, admin, subscription.id, { at: 'now', reason: 'Chargeback' });
    expect(now.statusCode, now.body).toBe(200);
    const ended = adminSubscriptionDetailSchema.parse(now.json());
    expect(ended).toMatchObject({ status: 'cancelled' });
    expect(ended.ended_at).not.toBeNull();
    expect((await licenseRow(s, license.license_id)).expires_at).toBe(ended.ended_at);

    expectApiError(
      await cancel(s, admin, subscription.id, { at: 'now', reason: 'Again' }),
      409,
      'subscription_ended',
    );

    const events = await s.app.db
      .selectFrom('security_events')
      .selectAll()
      .where('type', '=', 'subscription_cancelled')
      .where('user_id', '=', buyer.id)
      .orderBy('created_at')
      .execute();
    expect(events).toHaveLength(2);
    expect(events.map((event) => event.actor_id)).toEqual([admin.id, admin.id]);
    expect(events.map((event) => JSON.parse(event.details ?? '{}'))).toEqual([
      expect.objectContaining({
        subscription_id: subscription.id,
        at: 'period_end',
        reason: 'Customer asked by phone',
      }),
      expect.objectContaining({ subscription_id: subscription.id, at: 'now', reason: 'Chargeback' }),
    ]);
    // The customer is told, as when they cancel themselves.
    expect((await s.lastMailTo(buyer.email)).subject).toMatch(/cancel/i);
  });

  it('two administrators cancelling now at once: one ends it, the other is told it has ended; one event', async () => {
    const s = server();
    const first = await signInAsAdmin(s);
    const second = await signInAsAdmin(s);
    const buyer = await member(s);
    const { subscription } = await subscribe(s, buyer, 'pro-monthly');

    const answers = await Promise.all([
      cancel(s, first, subscription.id, { at: 'now', reason: 'First' }),
      cancel(s, second, subscription.id, { at: 'now', reason: 'Second' }),
    ]);
    expect(answers.map((answer) => answer.statusCode).toSorted()).toEqual([200, 409]);
    expectApiError(
      answers.find((answer) => answer.statusCode === 409)!,
      409,
      'subscription_ended',
    );
    expect((await subscriptionRow(s, subscription.id)).status).toBe('cancelled');
    const events = await s.app.db
      .selectFrom('security_events')
      .select('actor_id')
      .where('type', '=', 'subscription_cancelled')
      .where('user_id', '=', buyer.id)
      .execute();
    expect(events).toHaveLength(1);
  });
});

/**
 * The overview's subscription figures from rows written straight to a database of their own, with
 * known prices and dates: every expected number below is worked out by hand.
 */
describeOnEveryDatabase('admin dashboard: MRR, active subscriptions, churn and failed payments', (server) => {
  it('computes the figures in integer minor units from the seeded subscriptions and charges', async () => {
    const s = server();
    s.clock.freeze();
    const admin = await signInAsAdmin(s);
    const user = await signInAsUser(s);
    const now = s.clock.now().getTime();
    const ago = (days: number) => new Date(now - days * DAY_MS).toISOString();

    const empty = dashboardStatsSchema.parse(
      (await s.api({ path: '/admin/dashboard', token: admin.token })).json(),
    ).subscriptions;
    expect(empty).toEqual({
      active: 0,
      mrr: [],
      churn: { window_days: 30, ended: 0, live_at_start: 0, rate: null },
      failed_payments: { last_30_days: 0, past_due: 0, suspended: 0 },
      paused: { now: 0, planned: 0 },
    });

    const inrMonthly = await createPlan(s, { price: 999, interval: 'month' });
    const inrYearly = await createPlan(s, { price: 10_001, interval: 'year' });
    const usdMonthly = await createPlan(s, { price: 1550, interval: 'month' });
    const usdYearly = await createPlan(s, { price: 2000, interval: 'year' });
    await s.app.db
      .updateTable('plans')
      .set({ currency: 'USD' })
      .where('id', 'in', [usdMonthly.id, usdYearly.id])
      .execute();

    type Seed = {
      plan: { id: string };
      status: 'pending' | 'active' | 'past_due' | 'suspended' | 'cancelled' | 'paused';
      endedDaysAgo?: number;
      /** A pause asked for: under way when the status is paused, else starting at the period's end. */
      pause?: boolean;
      /** Cancelled at the period's end (still active until then). */
      cancelling?: boolean;
      /** Its charges: when paid (days ago), or failed (days ago, and a purchase rather than a charge). */
      charges: { paidDaysAgo?: number; failedDaysAgo?: number; purchase?: boolean }[];
      coupon?: string;
    };
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
          code: `MRR${id.slice(0, 8).toUpperCase()}`,
          description: null,
          percent_off: values.percent_off ?? null,
          amount_off_minor: values.amount_off_minor ?? null,
          currency: values.amount_off_minor === undefined ? null : 'INR',
          duration: values.duration,
          expires_at: null,
          max_redemptions: null,
          redeemed_count: 1,
          archived_at: null,
          created_at: ago(100),
          updated_at: ago(100),
        })
        .execute();
      return id;
    };
    // Every charge 20% off; every charge 1,001 off; half off the first charge only (spent since).
    const twentyOff = await coupon({ percent_off: 20, duration: 'forever' });
    const fixedOff = await coupon({ amount_off_minor: 1_001, duration: 'forever' });
    const firstHalf = await coupon({ percent_off: 50, duration: 'once' });
    const seeds: Record<string, Seed> = {
      // Live at the window's start (paid before it, not ended then), still billed: in MRR.
      a: { plan: inrMonthly, status: 'active', charges: [{ paidDaysAgo: 40 }], coupon: twentyOff },
      b: { plan: inrYearly, status: 'active', charges: [{ paidDaysAgo: 100 }], coupon: fixedOff },
      c: { plan: inrYearly, status: 'past_due', charges: [{ paidDaysAgo: 200 }, { failedDaysAgo: 3 }] },
      // Live at the start and ended within the window: the one churned.
      d: { plan: inrMonthly, status: 'cancelled', endedDaysAgo: 10, charges: [{ paidDaysAgo: 35 }] },
      // Ended before the window: in nothing.
      e: { plan: inrMonthly, status: 'cancelled', endedDaysAgo: 40, charges: [{ paidDaysAgo: 70 }] },
      // Started within the window: in MRR, not in the churn cohort.
      f: { plan: inrMonthly, status: 'active', charges: [{ paidDaysAgo: 5 }], coupon: firstHalf },
      // Suspended: live at the start, not billed now (not in MRR); its failure is too old to count.
      g: { plan: usdMonthly, status: 'suspended', charges: [{ paidDaysAgo: 50 }, { failedDaysAgo: 45 }] },
      h: { plan: usdYearly, status: 'active', charges: [{ paidDaysAgo: 60 }, { failedDaysAgo: 29 }] },
      i: { plan: usdMonthly, status: 'active', charges: [{ paidDaysAgo: 20 }] },
      // Never paid.
      j: { plan: inrMonthly, status: 'pending', charges: [] },
      // Started and ended within the window: not of the cohort, so not churn either.
      k: { plan: inrMonthly, status: 'cancelled', endedDaysAgo: 3, charges: [{ paidDaysAgo: 8 }] },
      // A failed one-off purchase is not a failed subscription charge.
      l: {
        plan: inrMonthly,
        status: 'active',
        charges: [{ paidDaysAgo: 15 }, { failedDaysAgo: 1, purchase: true }],
      },
      // Paused now: not billed, so in no MRR, and not active; live at the window's start.
      m: { plan: inrMonthly, status: 'paused', pause: true, charges: [{ paidDaysAgo: 45 }] },
      // A pause asked for, starting when the paid period ends: still active and billed until then.
      n: { plan: usdMonthly, status: 'active', pause: true, charges: [{ paidDaysAgo: 10 }] },
      // A pause asked for, then a cancellation at the period's end, which outruns it: no pause coming.
      o: { plan: inrMonthly, status: 'active', pause: true, cancelling: true, charges: [{ paidDaysAgo: 6 }] },
    };
    for (const [name, seed] of Object.entries(seeds)) {
      const id = randomUUID();
      const created = ago(Math.max(0, ...seed.charges.map((c) => c.paidDaysAgo ?? 0)) + 1);
      // No typed row: the columns a migration adds later take their defaults.
      await s.app.db
        .insertInto('subscriptions')
        .values({
          id,
          user_id: user.id,
          plan_id: seed.plan.id,
          license_id: null,
          provider: 'sandbox',
          provider_subscription_id: `sub_metrics_${name}_${id.slice(0, 8)}`,
          status: seed.status,
          anchor_at: null,
          anchor_cycle: 0,
          cycles: seed.charges.length,
          current_period_start: null,
          current_period_end: null,
          cancel_at_period_end: seed.cancelling ? 1 : 0,
          cancel_requested_at: seed.cancelling ? ago(2) : null,
          ended_at: seed.endedDaysAgo === undefined ? null : ago(seed.endedDaysAgo),
          grace_ends_at: null,
          next_retry_at: null,
          failed_attempts: 0,
          payment_method: null,
          sandbox_card: null,
          credit_minor: 0,
          version: 0,
          coupon_id: seed.coupon ?? null,
          ...(seed.pause
            ? { pause_periods: 1, pause_requested_at: ago(12), pause_resumes_at: ago(-20) }
            : {}),
          created_at: created,
          updated_at: created,
        } as never)
        .execute();
      for (const [index, charge] of seed.charges.entries()) {
        const at = ago(charge.paidDaysAgo ?? charge.failedDaysAgo ?? 0);
        await s.app.db
          .insertInto('payments')
          .values({
            id: randomUUID(),
            user_id: user.id,
            plan_id: seed.plan.id,
            provider: 'sandbox',
            provider_order_id: `sub_metrics_${name}_${id.slice(0, 8)}#${index + 1}`,
            provider_payment_id: null,
            amount_minor: 100,
            currency: 'INR',
            status: charge.paidDaysAgo === undefined ? 'failed' : 'paid',
            license_id: null,
            failure_reason: charge.paidDaysAgo === undefined ? 'Card declined' : null,
            created_at: at,
            updated_at: at,
            paid_at: charge.paidDaysAgo === undefined ? null : at,
            subscription_id: charge.purchase ? null : id,
            kind: charge.purchase ? 'purchase' : 'subscription',
            period_start: null,
            period_end: null,
          })
          .execute();
      }
    }

    const response = await s.api({ path: '/admin/dashboard', token: admin.token });
    expect(response.statusCode, response.body).toBe(200);
    const figures = dashboardStatsSchema.parse(response.json()).subscriptions;
    expect(figures).toEqual({
      // a, b, f, h, i, l, n, o
      active: 8,
      mrr: [
        // Monthly a (999 less 20% = 800), f (its first-charge coupon spent: 999), l and o (999 each):
        // 3797; yearly b (10 001 less 1 001 = 9000), c (10 001): 19 001 / 12 = 1583.42 → 1583. 5380 from 6.
        { currency: 'INR', amount_minor: 3797 + 1583, subscriptions: 6 },
        // Monthly i and n: 3100; yearly h: 2000 / 12 = 166.67 → 166. 3266 from 3 (g is suspended).
        { currency: 'USD', amount_minor: 1550 * 2 + 166, subscriptions: 3 },
      ],
      // Live 30 days ago: a, b, c, d, g, h, m (7); of them d ended since.
      churn: { window_days: 30, ended: 1, live_at_start: 7, rate: 1 / 7 },
      // c's charge 3 days ago and h's 29 days ago (g's is 45 days old; l's was a purchase).
      failed_payments: { last_30_days: 2, past_due: 1, suspended: 1 },
      // m is paused; n has its pause coming (o's was outrun by its cancellation).
      paused: { now: 1, planned: 1 },
    });
    // The dashboard is still one call and answers the rest as before.
    expect(dashboardStatsSchema.parse(response.json()).users.total).toBeGreaterThanOrEqual(2);
  });
});
