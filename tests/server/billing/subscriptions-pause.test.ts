import { expect, it } from 'vitest';
import { adminSubscriptionDetailSchema } from '../../../src/shared/api/admin-subscriptions.js';
import { utc } from '../../../src/shared/dates.js';
import { describeOnEveryDatabase } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import { signInAsAdmin } from '../helpers/admin-helpers.js';
import {
  activate,
  expectActivation,
  expectRefusal,
  machine,
  member,
  statusOf,
} from '../helpers/license-helpers.js';
import {
  chargesOf,
  later,
  licenseRow,
  subscribe,
  subscriptionCall,
  subscriptionRow,
} from '../helpers/subscription-helpers.js';

/** The security log's events of one type about one subscription (the suite's servers are shared). */
const securityEvents = async (
  s: Parameters<typeof subscriptionRow>[0],
  type: string,
  subscriptionId: string,
) =>
  (await s.app.db.selectFrom('security_events').selectAll().where('type', '=', type).execute()).filter(
    (event) => JSON.stringify(event).includes(subscriptionId),
  );

describeOnEveryDatabase('subscriptions: pause and resume (sandbox)', (server) => {
  it('a pause keeps the license to the paid period’s end, then reads paused with the resume date; the scheduler resumes it and bills the next period', async () => {
    const s = server();
    const buyer = await member(s);
    const { subscription, license } = await subscribe(s, buyer);
    const hw = machine();
    expectActivation(await activate(s, buyer.token, license.license_key, hw), 201);
    const periodEnd = subscription.current_period_end as string;
    const resumesAt = utc(periodEnd).add(2, 'month').toISOString();

    const paused = await subscriptionCall(s, buyer, 'POST', `/subscriptions/${subscription.id}/pause`, {
      periods: 2,
    });
    expect(paused).toMatchObject({
      status: 'active',
      pause: { periods: 2, starts_at: periodEnd, resumes_at: resumesAt },
      next_charge: { at: resumesAt },
    });
    const pausedMail = await s.lastMailTo(buyer.email);
    expect(pausedMail.subject).toMatch(/subscription is paused until/);
    expect(await securityEvents(s, 'subscription_paused', subscription.id)).toHaveLength(1);
    // Until the paid period ends, the license works.
    expect((await statusOf(s, license.license_key, hw)).statusCode).toBe(200);

    s.clock.freeze();
    await later(s, buyer, Date.parse(periodEnd) - s.clock.now().getTime() + 60_000);
    await s.app.scheduler.runOnce();
    await s.app.scheduler.runOnce();
    expect(await subscriptionRow(s, subscription.id)).toMatchObject({ status: 'paused', cycles: 1 });
    // Nothing was charged for the paused period.
    expect(await chargesOf(s, subscription.id)).toHaveLength(1);
    const refusal = expectRefusal(
      await statusOf(s, license.license_key, hw),
      403,
      'license_paused',
      'paused',
    );
    expect(refusal.resumes_at).toBe(resumesAt);
    expect(refusal.message).toMatch(/paused until .*resumes/);
    const shown = await s.api({ path: `/licenses/${license.license_id}`, token: buyer.token });
    expect(shown.json()).toMatchObject({ status: 'paused', paused_until: resumesAt });

    // A paused subscription cannot be paused again.
    expectApiError(
      await s.api({
        method: 'POST',
        path: `/subscriptions/${subscription.id}/pause`,
        token: buyer.token,
        body: { periods: 1 },
      }),
      409,
      'subscription_already_paused',
    );

    await later(s, buyer, Date.parse(resumesAt) - s.clock.now().getTime() + 60_000);
    await s.app.scheduler.runOnce();
    const resumed = await subscriptionRow(s, subscription.id);
    const resumedAt = s.clock.now().toISOString();
    expect(resumed).toMatchObject({
      status: 'active',
      cycles: 2,
      pause_resumes_at: null,
      current_period_start: resumedAt,
      current_period_end: utc(resumedAt).add(1, 'month').toISOString(),
    });
    expect(await licenseRow(s, license.license_id)).toMatchObject({
      status: 'active',
      paused_until: null,
      expires_at: resumed.current_period_end,
    });
    expect((await statusOf(s, license.license_key, hw)).statusCode).toBe(200);
    expect((await chargesOf(s, subscription.id)).map((charge) => charge.status)).toEqual(['paid', 'paid']);
    expect((await s.outbox()).some((mail) => /no longer paused/.test(mail.subject))).toBe(true);
  });

  it('confirms the pause and its withdrawal in the language the customer chose (German)', async () => {
    const s = server();
    const buyer = await member(s);
    const german = await s.api({
      method: 'PUT',
      path: '/users/me/preferences',
      token: buyer.token,
      body: { language: 'de' },
    });
    expect(german.statusCode, german.body).toBe(200);
    const { subscription } = await subscribe(s, buyer);
    await subscriptionCall(s, buyer, 'POST', `/subscriptions/${subscription.id}/pause`, { periods: 2 });
    const paused = await s.lastMailTo(buyer.email);
    expect(paused.subject).toMatch(/-Abonnement ist bis zum .+ pausiert$/);
    expect(paused.text).toContain('pausiert für 2 Abrechnungszeiträume');
    await subscriptionCall(s, buyer, 'POST', `/subscriptions/${subscription.id}/unpause`);
    const withdrawn = await s.lastMailTo(buyer.email);
    expect(withdrawn.subject).toMatch(/-Abonnement ist nicht mehr pausiert$/);
    expect(withdrawn.text).toContain('Ihre Pause ist zurückgenommen');
  });

  it('the sandbox’s next event: a planned pause starts now and lasts its periods, then the pause ends now and the next period is billed', async () => {
    const s = server();
    const buyer = await member(s);
    const { subscription } = await subscribe(s, buyer);
    const path = `/subscriptions/${subscription.id}`;
    const planned = await subscriptionCall(s, buyer, 'POST', `${path}/pause`, { periods: 1 });
    const plannedLength =
      Date.parse(planned.pause?.resumes_at ?? '') - Date.parse(planned.pause?.starts_at ?? '');
    expect(plannedLength).toBeGreaterThan(27 * 24 * 3_600_000);

    s.clock.freeze();
    const startedAt = s.clock.now();
    const started = await subscriptionCall(s, buyer, 'POST', `${path}/sandbox/renew`);
    expect(started).toMatchObject({ status: 'paused' });
    // Nothing was charged to start the pause, and it lasts the time it was planned to, from now.
    expect(await chargesOf(s, subscription.id)).toHaveLength(1);
    const pausedRow = await subscriptionRow(s, subscription.id);
    expect(Date.parse(pausedRow.pause_resumes_at as string) - startedAt.getTime()).toBe(plannedLength);

    const resumed = await subscriptionCall(s, buyer, 'POST', `${path}/sandbox/renew`);
    expect(resumed).toMatchObject({ status: 'active', pause: null });
    expect((await chargesOf(s, subscription.id)).map((charge) => charge.status)).toEqual(['paid', 'paid']);
    expect(await subscriptionRow(s, subscription.id)).toMatchObject({ cycles: 2, pause_resumes_at: null });
  });

  it('resume now: a paused subscription starts its next period and is billed now; a planned pause is withdrawn; resuming one not paused is refused', async () => {
    const s = server();
    const buyer = await member(s);
    const { subscription, license } = await subscribe(s, buyer);
    expectApiError(
      await s.api({ method: 'POST', path: `/subscriptions/${subscription.id}/unpause`, token: buyer.token }),
      409,
      'subscription_not_paused',
    );
    await subscriptionCall(s, buyer, 'POST', `/subscriptions/${subscription.id}/pause`, { periods: 1 });
    const withdrawn = await subscriptionCall(s, buyer, 'POST', `/subscriptions/${subscription.id}/unpause`);
    expect(withdrawn).toMatchObject({
      status: 'active',
      pause: null,
      current_period_end: subscription.current_period_end,
    });
    expect((await s.lastMailTo(buyer.email)).subject).toMatch(/no longer paused/);

    await subscriptionCall(s, buyer, 'POST', `/subscriptions/${subscription.id}/pause`, { periods: 3 });
    s.clock.freeze();
    await later(
      s,
      buyer,
      Date.parse(subscription.current_period_end as string) - s.clock.now().getTime() + 60_000,
    );
    await s.app.scheduler.runOnce();
    expect((await subscriptionRow(s, subscription.id)).status).toBe('paused');
    await later(s, buyer, 5 * 24 * 3600_000);
    const now = await subscriptionCall(s, buyer, 'POST', `/subscriptions/${subscription.id}/unpause`);
    const at = s.clock.now().toISOString();
    expect(now).toMatchObject({
      status: 'active',
      pause: null,
      current_period_start: at,
      current_period_end: utc(at).add(1, 'month').toISOString(),
    });
    expect((await licenseRow(s, license.license_id)).status).toBe('active');
    expect(await chargesOf(s, subscription.id)).toHaveLength(2);
    expect(await securityEvents(s, 'subscription_pause_ended', subscription.id)).toHaveLength(2);
  });

  it('bad input and races: periods outside 1–3 are 400; pausing twice at once pauses once; a past-due or cancelled subscription is refused', async () => {
    const s = server();
    const buyer = await member(s);
    const { subscription } = await subscribe(s, buyer);
    const pause = (body: unknown) =>
      s.api({ method: 'POST', path: `/subscriptions/${subscription.id}/pause`, token: buyer.token, body });
    for (const body of [
      { periods: 0 },
      { periods: 4 },
      { periods: 1.5 },
      { periods: 'two' },
      {},
      { periods: 1, extra: 1 },
    ])
      expectApiError(await pause(body), 400, 'validation_error');
    const both = await Promise.all([pause({ periods: 1 }), pause({ periods: 2 })]);
    expect(both.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    expectApiError(
      both.find((response) => response.statusCode === 409)!,
      409,
      'pause_already_requested',
    );
    expect(await securityEvents(s, 'subscription_paused', subscription.id)).toHaveLength(1);

    const late = await member(s);
    const { subscription: other } = await subscribe(s, late);
    await subscriptionCall(s, late, 'PUT', `/subscriptions/${other.id}/payment-method`, {
      sandbox_card: 'declines',
    });
    s.clock.freeze();
    await later(s, late, Date.parse(other.current_period_end as string) - s.clock.now().getTime() + 60_000);
    await s.app.scheduler.runOnce();
    expect((await subscriptionRow(s, other.id)).status).toBe('past_due');
    expectApiError(
      await s.api({
        method: 'POST',
        path: `/subscriptions/${other.id}/pause`,
        token: late.token,
        body: { periods: 1 },
      }),
      409,
      'subscription_not_pausable',
    );
    await subscriptionCall(s, late, 'POST', `/subscriptions/${other.id}/cancel`, { at: 'now' });
    expectApiError(
      await s.api({
        method: 'POST',
        path: `/subscriptions/${other.id}/pause`,
        token: late.token,
        body: { periods: 1 },
      }),
      409,
      'subscription_ended',
    );
    // Someone else's subscription is not found.
    expectApiError(
      await s.api({
        method: 'POST',
        path: `/subscriptions/${subscription.id}/pause`,
        token: late.token,
        body: { periods: 1 },
      }),
      404,
      'subscription_not_found',
    );
  });

  it('an administrator pauses and resumes with a reason, kept in the security log; a paused subscription cancelled now ends its license', async () => {
    const s = server();
    const admin = await signInAsAdmin(s);
    const buyer = await member(s);
    const { subscription, license } = await subscribe(s, buyer);
    expectApiError(
      await s.api({
        method: 'POST',
        path: `/admin/subscriptions/${subscription.id}/pause`,
        token: admin.token,
        body: { periods: 1 },
      }),
      400,
      'validation_error',
    );
    const paused = await s.api({
      method: 'POST',
      path: `/admin/subscriptions/${subscription.id}/pause`,
      token: admin.token,
      body: { periods: 1, reason: 'Customer asked by phone' },
    });
    expect(paused.statusCode, paused.body).toBe(200);
    expect(adminSubscriptionDetailSchema.parse(paused.json()).pause).toMatchObject({ periods: 1 });
    const [event] = await securityEvents(s, 'subscription_paused', subscription.id);
    expect(event).toMatchObject({ actor_id: admin.id });
    expect(JSON.parse(event!.details as string)).toMatchObject({ reason: 'Customer asked by phone' });
    expectApiError(
      await s.api({
        method: 'POST',
        path: `/admin/subscriptions/${subscription.id}/pause`,
        token: buyer.token,
        body: { periods: 1, reason: 'x' },
      }),
      403,
      'admin_required',
    );

    s.clock.freeze();
    await later(
      s,
      buyer,
      Date.parse(subscription.current_period_end as string) - s.clock.now().getTime() + 60_000,
    );
    await s.app.scheduler.runOnce();
    expect((await subscriptionRow(s, subscription.id)).status).toBe('paused');
    const cancelled = await subscriptionCall(s, buyer, 'POST', `/subscriptions/${subscription.id}/cancel`, {
      at: 'now',
    });
    expect(cancelled.status).toBe('cancelled');
    expect(await licenseRow(s, license.license_id)).toMatchObject({ status: 'active', paused_until: null });
    const shown = await s.api({ path: `/licenses/${license.license_id}`, token: buyer.token });
    expect(shown.json()).toMatchObject({ status: 'expired' });
    // Nothing resumes or charges a cancelled subscription later.
    await later(s, buyer, 40 * 24 * 3600_000);
    await s.app.scheduler.runOnce();
    expect(await chargesOf(s, subscription.id)).toHaveLength(1);
  });

  it('a cancellation at the period’s end outruns a pause asked for: no pause is shown or started, the subscription ends, and withdrawing the cancellation brings the pause back', async () => {
    const s = server();
    const buyer = await member(s);
    const { subscription, license } = await subscribe(s, buyer);
    const path = `/subscriptions/${subscription.id}`;
    await subscriptionCall(s, buyer, 'POST', `${path}/pause`, { periods: 2 });
    const cancelling = await subscriptionCall(s, buyer, 'POST', `${path}/cancel`, { at: 'period_end' });
    expect(cancelling).toMatchObject({ status: 'active', cancel_at_period_end: true, pause: null });
    expect(cancelling.next_charge).toBeNull();

    const resumed = await subscriptionCall(s, buyer, 'POST', `${path}/resume`);
    expect(resumed).toMatchObject({ cancel_at_period_end: false, pause: { periods: 2 } });
    await subscriptionCall(s, buyer, 'POST', `${path}/cancel`, { at: 'period_end' });

    s.clock.freeze();
    await later(
      s,
      buyer,
      Date.parse(subscription.current_period_end as string) - s.clock.now().getTime() + 60_000,
    );
    await s.app.scheduler.runOnce();
    expect(await subscriptionRow(s, subscription.id)).toMatchObject({ status: 'cancelled' });
    expect((await licenseRow(s, license.license_id)).paused_until).toBeNull();
    expect(await chargesOf(s, subscription.id)).toHaveLength(1);
  });
});
