import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { type DashboardStats, dashboardStatsSchema } from '../../../src/shared/api/admin.js';
import type { PaymentStatus } from '../../../src/server/platform/db/tables.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { signIn, signInAsAdmin } from '../helpers/admin-helpers.js';
import {
  activate,
  DAY_MS,
  giveLicense,
  licenseSuiteOptions,
  machine,
  planByCode,
} from '../helpers/license-helpers.js';

const iso = (ms: number) => new Date(ms).toISOString();

async function stats(s: TestServer, token: string): Promise<DashboardStats> {
  const response = await s.api({ path: '/admin/dashboard', token });
  expect(response.statusCode, response.body).toBe(200);
  return dashboardStatsSchema.parse(response.json());
}

async function insertPayment(
  s: TestServer,
  payment: { amount: number; currency: string; status: PaymentStatus; paidAt: number | null },
) {
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
      provider_order_id: `order_${id}`,
      provider_payment_id: null,
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
}

describeOnEveryDatabase(
  'GET /admin/dashboard',
  (server) => {
    it('counts users, licenses by effective status, activations, revenue by period and recent security events', async () => {
      const s = server();
      // Everything the set-up logs happens at `now`, so the events dated around it below keep
      // their order and their day however long the set-up takes.
      s.clock.freeze();
      const admin = await signInAsAdmin(s);
      const before = await stats(s, admin.token);
      const now = s.clock.now().getTime();

      // Users: one new active user, one disabled, one more administrator.
      const owner = await signIn(s, 'user', 'dash');
      const disabled = await signIn(s, 'user', 'dash-disabled');
      await s.app.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', disabled.id).execute();
      await signIn(s, 'admin', 'dash-admin');

      // Licenses: one of each effective status; one machine activated now.
      const active = await giveLicense(s, owner, 'pro-monthly');
      for (const status of ['suspended', 'revoked', 'expired'] as const) {
        const row = await giveLicense(s, owner, 'pro-monthly');
        const changes =
          status === 'expired'
            ? { expires_at: iso(now - DAY_MS) }
            : { status, revoked_reason: status === 'revoked' ? 'test' : null };
        await s.app.db.updateTable('licenses').set(changes).where('id', '=', row.id).execute();
      }
      expect((await activate(s, owner.token, active.license_key, machine())).statusCode).toBe(201);

      // Payments: only paid ones count, by when they were paid.
      const payments = [
        { amount: 1000, currency: 'INR', status: 'paid' as const, paidAt: now },
        { amount: 500, currency: 'INR', status: 'paid' as const, paidAt: now - 3 * DAY_MS },
        { amount: 2000, currency: 'USD', status: 'paid' as const, paidAt: now - 40 * DAY_MS },
        { amount: 700, currency: 'USD', status: 'paid' as const, paidAt: now - 400 * DAY_MS },
        { amount: 9999, currency: 'INR', status: 'failed' as const, paidAt: null },
        { amount: 8888, currency: 'INR', status: 'created' as const, paidAt: null },
      ];
      for (const payment of payments) await insertPayment(s, payment);

      // Security: three critical events now, one too old to count; the newest is first in `recent`.
      const critical = [now - 2000, now - 1000, now, now - 31 * DAY_MS].map((at) => ({
        id: randomUUID(),
        type: 'refresh_token_reuse',
        severity: 'critical' as const,
        user_id: owner.id,
        actor_id: null,
        ip: '203.0.113.5',
        user_agent: null,
        details: JSON.stringify({ at }),
        created_at: iso(at + 1000),
      }));
      const older = Array.from({ length: 10 }, (_, index) => ({
        ...critical[0],
        id: randomUUID(),
        type: 'login_failed',
        severity: 'info' as const,
        details: null,
        created_at: iso(now - 60_000 - index),
      }));
      await s.app.db
        .insertInto('security_events')
        .values([...critical, ...older])
        .execute();

      const after = await stats(s, admin.token);
      expect(after.users).toEqual({
        total: before.users.total + 3,
        active: before.users.active + 2,
        unconfirmed: before.users.unconfirmed,
        disabled: before.users.disabled + 1,
        admins: before.users.admins + 1,
        new_last_30_days: before.users.new_last_30_days + 3,
      });
      expect(after.licenses).toEqual({
        total: before.licenses.total + 4,
        active: before.licenses.active + 1,
        by_status: {
          active: before.licenses.by_status.active + 1,
          suspended: before.licenses.by_status.suspended + 1,
          revoked: before.licenses.by_status.revoked + 1,
          expired: before.licenses.by_status.expired + 1,
          trial_expired: before.licenses.by_status.trial_expired,
          paused: before.licenses.by_status.paused,
        },
        // None of the four is perpetual (tests/server/distribution/update-windows.test.ts counts those).
        perpetual: before.licenses.perpetual,
      });
      expect(after.activations).toEqual({
        active: before.activations.active + 1,
        last_24h: before.activations.last_24h + 1,
      });

      // No other test writes payments in this suite, so the figures are exact.
      expect(before.revenue.totals).toEqual([]);
      expect(after.revenue.totals).toEqual([
        { currency: 'INR', amount_minor: 1500, gross_minor: 1500, refunded_minor: 0, payments: 2 },
        { currency: 'USD', amount_minor: 2700, gross_minor: 2700, refunded_minor: 0, payments: 2 },
      ]);
      const day = (ms: number) => iso(ms).slice(0, 10);
      expect(after.revenue.by_day).toHaveLength(30);
      expect(after.revenue.by_day.at(-1)).toEqual({
        period: day(now),
        totals: [{ currency: 'INR', amount_minor: 1000, gross_minor: 1000, refunded_minor: 0, payments: 1 }],
      });
      expect(after.revenue.by_day[0]?.period).toBe(day(now - 29 * DAY_MS));
      expect(after.revenue.by_day.find((entry) => entry.period === day(now - 3 * DAY_MS))?.totals).toEqual([
        { currency: 'INR', amount_minor: 500, gross_minor: 500, refunded_minor: 0, payments: 1 },
      ]);
      const dailyTotal = after.revenue.by_day
        .flatMap((entry) => entry.totals)
        .reduce((sum, t) => sum + t.amount_minor, 0);
      expect(dailyTotal).toBe(1500);

      const month = (ms: number) => iso(ms).slice(0, 7);
      expect(after.revenue.by_month).toHaveLength(12);
      expect(after.revenue.by_month.at(-1)?.period).toBe(month(now));
      const monthly = new Map<string, number>();
      for (const entry of after.revenue.by_month)
        for (const total of entry.totals)
          monthly.set(`${entry.period} ${total.currency}`, total.amount_minor);
      const expected = new Map<string, number>();
      // The first three are paid within the last twelve months.
      for (const payment of payments.slice(0, 3)) {
        const key = `${month(payment.paidAt ?? Number.NaN)} ${payment.currency}`;
        expected.set(key, (expected.get(key) ?? 0) + payment.amount);
      }
      expect(monthly).toEqual(expected);

      expect(after.security.by_severity.critical).toBe(before.security.by_severity.critical + 3);
      expect(after.security.by_severity.info).toBeGreaterThanOrEqual(before.security.by_severity.info + 10);
      expect(after.security.recent).toHaveLength(10);
      expect(after.security.recent[0]).toMatchObject({
        id: critical[2]?.id,
        user_email: owner.email,
        details: { at: now },
      });
      const times = after.security.recent.map((event) => event.created_at);
      expect(times).toEqual(times.toSorted().toReversed());
    });
  },
  licenseSuiteOptions,
);
