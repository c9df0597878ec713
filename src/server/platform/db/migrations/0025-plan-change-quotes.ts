import type { Kysely } from 'kysely';

// A plan change's quote is kept for as long as it holds, so confirming it charges what it showed
// instead of a price worked out again at confirm time (a few paise apart after a minute). It names
// the subscription's version it was made at: any change of the subscription since refuses it.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('plan_change_quotes')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('subscription_id', 'text', (column) =>
      column.notNull().references('subscriptions.id').onDelete('cascade'),
    )
    .addColumn('subscription_version', 'integer', (column) => column.notNull())
    .addColumn('plan_id', 'text', (column) => column.notNull())
    .addColumn('credit_minor', 'integer', (column) => column.notNull())
    .addColumn('balance_minor', 'integer', (column) => column.notNull())
    .addColumn('due_now_minor', 'integer', (column) => column.notNull())
    .addColumn('balance_after_minor', 'integer', (column) => column.notNull())
    .addColumn('refund_minor', 'integer', (column) => column.notNull())
    .addColumn('currency', 'text', (column) => column.notNull())
    .addColumn('period_start', 'text', (column) => column.notNull())
    .addColumn('period_end', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('plan_change_quotes_subscription_idx')
    .on('plan_change_quotes')
    .columns(['subscription_id', 'expires_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('plan_change_quotes').execute();
}
