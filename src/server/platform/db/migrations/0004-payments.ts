import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payments')
    .addColumn('id', 'text', (column) => column.primaryKey())
    // The record outlives a deleted account: accounting still needs it.
    .addColumn('user_id', 'text', (column) => column.references('users.id').onDelete('set null'))
    .addColumn('plan_id', 'text', (column) => column.notNull().references('plans.id'))
    .addColumn('provider', 'text', (column) => column.notNull())
    .addColumn('provider_order_id', 'text', (column) => column.notNull().unique())
    .addColumn('provider_payment_id', 'text', (column) => column.unique())
    .addColumn('amount_minor', 'integer', (column) => column.notNull())
    .addColumn('currency', 'text', (column) => column.notNull())
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('license_id', 'text', (column) => column.references('licenses.id').onDelete('set null'))
    .addColumn('failure_reason', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addColumn('paid_at', 'text')
    .execute();
  // The filters of the admin list and the history, each with the default order (newest first).
  await db.schema.createIndex('payments_created_idx').on('payments').columns(['created_at', 'id']).execute();
  await db.schema
    .createIndex('payments_user_created_idx')
    .on('payments')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('payments_status_created_idx')
    .on('payments')
    .columns(['status', 'created_at'])
    .execute();
  await db.schema
    .createIndex('payments_plan_created_idx')
    .on('payments')
    .columns(['plan_id', 'created_at'])
    .execute();
  // Revenue by period: paid payments by the time they were paid.
  await db.schema
    .createIndex('payments_status_paid_idx')
    .on('payments')
    .columns(['status', 'paid_at'])
    .execute();
  await db.schema.createIndex('payments_license_idx').on('payments').column('license_id').execute();

  await db.schema
    .createTable('payment_webhook_events')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('provider', 'text', (column) => column.notNull())
    .addColumn('event_type', 'text', (column) => column.notNull())
    .addColumn('payment_id', 'text')
    .addColumn('outcome', 'text', (column) => column.notNull())
    .addColumn('received_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('payment_webhook_events_payment_idx')
    .on('payment_webhook_events')
    .column('payment_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('payment_webhook_events').execute();
  await db.schema.dropTable('payments').execute();
}
