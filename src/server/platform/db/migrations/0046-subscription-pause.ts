import type { Kysely } from 'kysely';

// A subscription paused for one to three periods (issue 34, item 9). The pause is asked for while
// the subscription is active and starts when the paid period ends: until then `pause_resumes_at`
// (with `pause_periods` and `pause_requested_at`) says one is coming; from then the subscription
// is `paused` and its license reads `paused` with `paused_until`, the moment it resumes and the
// next period is billed. Both cleared when it resumes (early or on time).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('subscriptions').addColumn('pause_periods', 'integer').execute();
  await db.schema.alterTable('subscriptions').addColumn('pause_requested_at', 'text').execute();
  await db.schema.alterTable('subscriptions').addColumn('pause_resumes_at', 'text').execute();
  await db.schema.alterTable('licenses').addColumn('paused_until', 'text').execute();
  // The scheduler's look for paused subscriptions whose pause is over.
  await db.schema
    .createIndex('subscriptions_status_pause_resumes_at')
    .on('subscriptions')
    .columns(['status', 'pause_resumes_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('subscriptions_status_pause_resumes_at').execute();
  await db.schema.alterTable('licenses').dropColumn('paused_until').execute();
  await db.schema.alterTable('subscriptions').dropColumn('pause_resumes_at').execute();
  await db.schema.alterTable('subscriptions').dropColumn('pause_requested_at').execute();
  await db.schema.alterTable('subscriptions').dropColumn('pause_periods').execute();
}
