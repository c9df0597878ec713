import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator } from 'kysely';
import { expect, it } from 'vitest';
import { createDatabase } from '../../../src/server/platform/db/database.js';
import { migrateToLatest, migrations } from '../../../src/server/platform/db/migrate.js';

/**
 * Migration 0015 on a SQLite database that has subscriptions from before it: a Razorpay
 * subscription whose cancellation was already sent to Razorpay (at period end, or ended) is
 * recorded as stopped there, so the scheduler does not cancel it again and it is not offered a
 * resume Razorpay would not honour; a live one and a sandbox one are left as they were.
 */
it('0015 marks Razorpay subscriptions cancelled before it as stopped at Razorpay, and only those', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'portal-0015-'));
  const { db } = createDatabase({ databaseUrl: undefined, dataDir });
  try {
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    const before = await migrator.migrateTo('0014-support-requests');
    expect(before.error).toBeUndefined();
    const plan = await db.selectFrom('plans').select('id').executeTakeFirstOrThrow();
    const at = '2026-11-01T10:00:00.000Z';
    const row = (id: string, provider: string, changes: Record<string, unknown>) => ({
      id,
      user_id: null,
      plan_id: plan.id,
      license_id: null,
      provider,
      provider_subscription_id: `sub_${id}`,
      status: 'active',
      anchor_at: at,
      anchor_cycle: 0,
      cycles: 1,
      current_period_start: at,
      current_period_end: '2026-12-01T10:00:00.000Z',
      cancel_at_period_end: 0,
      cancel_requested_at: null,
      ended_at: null,
      grace_ends_at: null,
      next_retry_at: null,
      failed_attempts: 0,
      payment_method: null,
      sandbox_card: null,
      credit_minor: 0,
      version: 0,
      coupon_id: null,
      created_at: at,
      updated_at: at,
      ...changes,
    });
    const requested = '2026-11-20T09:00:00.000Z';
    await db
      .insertInto('subscriptions')
      .values([
        row('atEnd', 'razorpay', { cancel_at_period_end: 1, cancel_requested_at: requested }),
        row('ended', 'razorpay', {
          status: 'cancelled',
          ended_at: requested,
          cancel_requested_at: requested,
        }),
        row('live', 'razorpay', {}),
        row('sandboxAtEnd', 'sandbox', { cancel_at_period_end: 1, cancel_requested_at: requested }),
      ] as never)
      .execute();

    await migrateToLatest(db);
    const closed = await db
      .selectFrom('subscriptions')
      .select(['id', 'provider_closed_at', 'provider_cycle_offset'])
      .orderBy('id')
      .execute();
    expect(closed).toEqual([
      { id: 'atEnd', provider_closed_at: requested, provider_cycle_offset: 0 },
      { id: 'ended', provider_closed_at: requested, provider_cycle_offset: 0 },
      { id: 'live', provider_closed_at: null, provider_cycle_offset: 0 },
      { id: 'sandboxAtEnd', provider_closed_at: null, provider_cycle_offset: 0 },
    ]);
  } finally {
    await db.destroy();
    await rm(dataDir, { recursive: true, force: true });
  }
});
