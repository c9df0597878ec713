import { type Kysely, sql } from 'kysely';

// Metered AI usage. A plan's metered feature gets an overage policy: 'stop' at the allowance,
// 'bill' each unit over it (`overage_price_minor` per `overage_per_units` units), or 'cap': bill up
// to `overage_cap` units over it, then stop. Usage events get the id their reporter gave them
// (`event_id`, unique per license, so a retried batch counts once), when they happened
// (`occurred_at`, which picks the period they count in, however late they arrive) and who
// reported them (`user_id`). `usage_daily` rolls them up per license, feature and UTC day, so the
// usage chart reads rollups instead of summing events.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('plan_features')
    .addColumn('overage_policy', 'text', (column) => column.notNull().defaultTo('stop'))
    .execute();
  await db.schema.alterTable('plan_features').addColumn('overage_price_minor', 'integer').execute();
  await db.schema
    .alterTable('plan_features')
    .addColumn('overage_per_units', 'integer', (column) => column.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('plan_features').addColumn('overage_cap', 'integer').execute();

  await db.schema.alterTable('usage_events').addColumn('event_id', 'text').execute();
  await db.schema.alterTable('usage_events').addColumn('occurred_at', 'text').execute();
  await db.schema.alterTable('usage_events').addColumn('user_id', 'text').execute();
  await sql`UPDATE usage_events SET occurred_at = created_at, event_id = id`.execute(db);
  await db.schema
    .createIndex('usage_events_license_event_key')
    .on('usage_events')
    .columns(['license_id', 'event_id'])
    .unique()
    .execute();

  await db.schema
    .createTable('usage_daily')
    .addColumn('license_id', 'text', (column) =>
      column.notNull().references('licenses.id').onDelete('cascade'),
    )
    .addColumn('feature_id', 'text', (column) =>
      column.notNull().references('features.id').onDelete('cascade'),
    )
    .addColumn('day', 'text', (column) => column.notNull())
    .addColumn('total', 'integer', (column) => column.notNull())
    .addPrimaryKeyConstraint('usage_daily_pk', ['license_id', 'feature_id', 'day'])
    .execute();
  await sql`INSERT INTO usage_daily (license_id, feature_id, day, total)
    SELECT license_id, feature_id, substr(occurred_at, 1, 10), sum(amount)
    FROM usage_events GROUP BY license_id, feature_id, substr(occurred_at, 1, 10)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('usage_daily').execute();
  await db.schema.dropIndex('usage_events_license_event_key').execute();
  for (const column of ['user_id', 'occurred_at', 'event_id'])
    await db.schema.alterTable('usage_events').dropColumn(column).execute();
  for (const column of ['overage_cap', 'overage_per_units', 'overage_price_minor', 'overage_policy'])
    await db.schema.alterTable('plan_features').dropColumn(column).execute();
}
